/// Walking a loaded document by member name and element position — what a state path
/// (`todos[2].title`) does — without building the values passed through. A lazy container's
/// value is read from its text onto the end of the tape when it is reached
/// (``JSONTapeDocument/appendedValue(at:)``).
extension JSONTapeDocument {
  /// Whether the value at `index` is an object.
  package func isObject(at index: Int) -> Bool { tape[index].kind == .object }

  /// Whether the value at `index` is an array.
  package func isArray(at index: Int) -> Bool { tape[index].kind == .array }

  /// The number of members or elements of the object or array at `index`; 0 for anything else.
  package func count(at index: Int) -> Int {
    let entry = tape[index]
    guard entry.kind == .object || entry.kind == .array else { return 0 }
    return Int(entry.count)
  }

  /// The value of the member named `name` (compared as Swift strings) of the object at `index`,
  /// or `nil` when it is not an object or has no such member.
  package func member(named name: String, of index: Int) -> Int? {
    let entry = tape[index]
    guard entry.kind == .object else { return nil }
    if entry.isLazy {
      let finder = JSONLazyObject(
        bytes: bytes, start: entry.start, options: userInfo,
        lazyContainerEntries: lazyContainerEntries)
      return finder.member(named: name).flatMap { appendedValue(at: $0.valueStart) }
    }
    let tape = self.tape
    var key = index + 1
    for _ in 0..<Int(entry.count) {
      if JSONTape.string(tape[key], in: bytes) == name { return key + 1 }
      key = tape[key + 1].next
    }
    return nil
  }

  /// The element at `position` of the array at `index`, or `nil` when it is not an array or
  /// has no such element.
  package func element(_ position: Int, of index: Int) -> Int? {
    let entry = tape[index]
    guard entry.kind == .array, position >= 0, position < Int(entry.count) else { return nil }
    if entry.isLazy {
      var offset = JSONLazyValues.elementStart(in: bytes, after: entry.start + 1)
      for _ in 0..<position { offset = JSONLazyValues.nextElement(in: bytes, after: offset) }
      return appendedValue(at: offset)
    }
    let tape = self.tape
    var element = index + 1
    for _ in 0..<position { element = tape[element].next }
    return element
  }

  /// The first element of the array at `index` that `matches`, in one walk of the array, or
  /// `nil` when none does (or it is not an array).
  package func firstElement(of index: Int, where matches: (Int) -> Bool) -> Int? {
    let entry = tape[index]
    guard entry.kind == .array, entry.count > 0 else { return nil }
    if entry.isLazy {
      var offset = JSONLazyValues.elementStart(in: bytes, after: entry.start + 1)
      for position in 0..<Int(entry.count) {
        if position > 0 { offset = JSONLazyValues.nextElement(in: bytes, after: offset) }
        if let element = appendedValue(at: offset), matches(element) { return element }
      }
      return nil
    }
    var element = index + 1
    for position in 0..<Int(entry.count) {
      if position > 0 { element = tape[element].next }
      if matches(element) { return element }
    }
    return nil
  }

  /// The keys of the object at `index`, in order; empty for anything else.
  package func keys(of index: Int) -> [String] {
    let entry = tape[index]
    guard entry.kind == .object else { return [] }
    if entry.isLazy {
      return JSONLazyObject(
        bytes: bytes, start: entry.start, options: userInfo,
        lazyContainerEntries: lazyContainerEntries
      ).keys()
    }
    let tape = self.tape
    var keys: [String] = []
    var key = index + 1
    for _ in 0..<Int(entry.count) {
      keys.append(JSONTape.string(tape[key], in: bytes))
      key = tape[key + 1].next
    }
    return keys
  }
}
