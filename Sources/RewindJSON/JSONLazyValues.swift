/// The values of a lazy array or object (``JSONTapeEntry/isLazy``), read one at a time from the
/// text: each into a small document of its own, so that the tape of a long array or a large
/// object never holds more than one of its values' entries at once.
///
/// The document is reused from one value to the next while nothing else holds its decoder (a
/// decoded value that kept it, or a container handed out for a value, gets one of its own).
final class JSONLazyValues {
  private let options: [CodingUserInfoKey: any Sendable]
  private let lazyContainerEntries: Int
  private var document: JSONTapeDocument?
  private var decoder: JSONTapeDecoder?

  /// - Parameter lazyContainerEntries: The reading document's setting: a value read is lazy in
  ///   turn past as many entries.
  init(options: [CodingUserInfoKey: any Sendable], lazyContainerEntries: Int) {
    self.options = options
    self.lazyContainerEntries = lazyContainerEntries
  }

  /// Reads the value whose text starts at `start` of `bytes` (text read and checked before, as
  /// part of its container) and returns the decoder over it, at tape index 0.
  /// - Parameter kept: Whether what is decoded may be used after the next value is read: the
  ///   value then gets a document of its own.
  /// - Throws: `DecodingError.dataCorrupted` if the text does not read again (which would be a
  ///   bug: it was read before).
  func read(
    _ bytes: UnsafeRawBufferPointer, at start: Int, kept: Bool, path: JSONErrorPath
  ) throws -> JSONTapeDecoder {
    let text = UnsafeRawBufferPointer(
      rebasing: bytes[start..<JSONScan.valueEnd(in: bytes, at: start)])
    let document: JSONTapeDocument
    let decoder: JSONTapeDecoder
    if !kept, isKnownUniquelyReferenced(&self.decoder), let reused = self.decoder,
      let reusedDocument = self.document
    {
      (document, decoder) = (reusedDocument, reused)
    } else {
      document = JSONTapeDocument(
        limits: .unlimited, userInfo: options, lazyContainerEntries: lazyContainerEntries)
      decoder = JSONTapeDecoder(options: options, lazyContainerEntries: lazyContainerEntries)
      decoder.owner = document
      if !kept { (self.document, self.decoder) = (document, decoder) }
    }
    guard document.load(text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: path.parent.path.appending(path.key).keys,
          debugDescription: "a value of a long array or a large object did not read again "
            + "from its text (byte \(start)); please report this with the input"))
    }
    decoder.reset(bytes: document.bytes, tape: document.tape)
    return decoder
  }

  /// The offset of the first element of the array whose text continues at `offset` (after its
  /// opening bracket): past any whitespace.
  static func elementStart(in bytes: UnsafeRawBufferPointer, after offset: Int) -> Int {
    var i = offset
    while i < bytes.count, bytes[i] <= .space { i += 1 }
    return i
  }

  /// The offset of the element after the one that starts at `start`: past it, whitespace and a
  /// comma (at the array's closing bracket when it was the last).
  static func nextElement(in bytes: UnsafeRawBufferPointer, after start: Int) -> Int {
    var i = elementStart(in: bytes, after: JSONScan.valueEnd(in: bytes, at: start))
    if i < bytes.count, bytes[i] == .comma { i = elementStart(in: bytes, after: i + 1) }
    return i
  }
}
