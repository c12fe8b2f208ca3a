/// The `allKeys` of objects with one member, kept by key type and key text: what an enum's
/// synthesized `init(from:)` asks for, twice, for every value.
///
/// Making a `[Key]` costs a lookup in the runtime's metadata cache for its storage (generic in
/// `Key`) and a `Key(stringValue:)` on a new `String` — about 900 instructions — which a value
/// of the same case, decoded again, would repeat. Returned arrays are shared (copy on write), and
/// `Key(stringValue:)` is taken to depend on the text alone, as `CodingKey`s do. Unescaped keys
/// only; at most ``capacity`` entries, replaced in turn.
final class JSONOnlyKeyCache {
  /// A cached `[Key]`, behind a class so that entries of different key types share one array.
  private final class Keys<Key: CodingKey> {
    /// The keys, as `allKeys` returns them.
    let keys: [Key]
    init(_ keys: [Key]) { self.keys = keys }
  }

  private struct Entry {
    /// The identity of the `CodingKey` type the keys are of.
    let type: ObjectIdentifier
    /// The key's text, unescaped, without quotes.
    let name: [UInt8]
    /// A `Keys<Key>` of that type.
    let keys: AnyObject
  }

  /// How many key texts it holds at most.
  static let capacity = 64

  /// The cached keys, at most ``capacity``.
  private var entries: [Entry] = []
  /// The entry a full cache replaces next.
  private var nextReplaced = 0
  /// Lookups that found nothing since the last that found something: a full cache that keeps
  /// missing (a dictionary of one entry keyed by ids) stops taking new entries, which would cost
  /// an allocation each and never be asked for again.
  private var missesSinceHit = 0

  /// The keys cached for `name` (a key's text without quotes, unescaped) and `Key`, if any.
  func keys<Key: CodingKey>(_ type: Key.Type, name: UnsafeRawBufferPointer) -> [Key]? {
    let id = ObjectIdentifier(Key.self)
    for entry in entries where entry.type == id && entry.name.count == name.count {
      let same = entry.name.withUnsafeBytes { stored in
        stored.elementsEqual(name)
      }
      // The entry's type is `Keys<Key>`: it was stored under `Key`'s identifier.
      if same {
        missesSinceHit = 0
        return unsafeDowncast(entry.keys, to: Keys<Key>.self).keys
      }
    }
    missesSinceHit += 1
    return nil
  }

  /// Keeps `keys` as the `allKeys` of an object whose only key is `name`.
  func insert<Key: CodingKey>(_ keys: [Key], name: UnsafeRawBufferPointer) {
    if entries.count == Self.capacity && missesSinceHit > 2 * Self.capacity { return }
    let entry = Entry(type: ObjectIdentifier(Key.self), name: Array(name), keys: Keys(keys))
    if entries.count < Self.capacity {
      entries.append(entry)
    } else {
      entries[nextReplaced] = entry
      nextReplaced = (nextReplaced + 1) % Self.capacity
    }
  }
}
