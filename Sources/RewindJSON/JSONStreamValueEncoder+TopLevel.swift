/// A top-level value: written in one pass, or, when one pass cannot, again in the buffered mode
/// (``JSONStreamBuffer``); and what its top level is, for naming an action.
extension JSONStreamValueEncoder {
  /// Encodes a top-level value into `output`: in one pass, or, when one pass cannot write it, in
  /// the buffered mode.
  ///
  /// - Returns: What the value's top level is.
  /// - Throws: The value's own errors, a non-finite number's `EncodingError.invalidValue`, and
  ///   that error when the value encodes nothing at all.
  func encodeTopLevel<T: Encodable>(
    _ value: T, into output: inout [UInt8]
  ) throws -> JSONStreamEncoder.TopLevel {
    let start = output.count
    if let topLevel = try encodeInOnePass(value, into: &output) { return topLevel }
    output.removeSubrange(start...)
    if let counter = JSONStreamFallbackCounter.current { counter.note(T.self) }
    return try encodeBuffered(value, order: .written, into: &output, naming: true)
  }

  /// Resets what one encoding keeps, for a top-level value at `path`.
  private func reset(buffer: JSONStreamBuffer?, path: JSONLazyPath) {
    state.pointee.gaveUp = false
    state.pointee.superValueStart = -1
    state.pointee.firstTopKey = nil
    state.pointee.topString = nil
    state.pointee.topIsSpecial = false
    state.pointee.buffer = buffer
    state.pointee.slot = Slot(isFilled: false, frameID: 0, path: path)
  }

  /// Forgets the frames of the last encoding.
  private func clearFrames() {
    // One at a time, keeping the capacity: `removeAll(keepingCapacity:)` goes through the generic
    // `replaceSubrange`, which cost more than the few frames a value leaves open.
    while !state.pointee.frames.isEmpty { state.pointee.frames.removeLast() }
    while !state.pointee.framePaths.isEmpty { state.pointee.framePaths.removeLast() }
    while !state.pointee.keys.isEmpty { state.pointee.keys.removeLast() }
  }

  /// One pass; `nil` when it gave up (what it wrote is left for the caller to remove).
  func encodeInOnePass<T: Encodable>(
    _ value: T, into output: inout [UInt8]
  ) throws -> JSONStreamEncoder.TopLevel? {
    swap(&state.pointee.output, &output)
    defer {
      swap(&state.pointee.output, &output)
      clearFrames()
    }
    let start = state.pointee.output.count
    reset(buffer: nil, path: JSONLazyPath(parent: .root, key: nil))
    do {
      try writeValue(value, isTopLevel: true)
    } catch {
      if state.pointee.gaveUp { return nil }
      throw error
    }
    let topFrame = state.pointee.frames.first
    closeFrames(downTo: 0)
    guard !state.pointee.gaveUp else { return nil }
    guard state.pointee.slot.isFilled else { throw Self.nothingEncoded(value) }
    if state.pointee.topIsSpecial {
      let text = Array(state.pointee.output[start...])
      return text.withUnsafeBytes { Self.topLevel(of: $0) }
    }
    if let topFrame, topFrame.isObject, topFrame.count == 1, let key = state.pointee.firstTopKey {
      return .singleKeyObject(key)
    }
    if let text = state.pointee.topString { return .string(text) }
    return .other
  }

  /// Encodes `value` in the buffered mode, its own container's entries in `order`, and appends
  /// its text to `output`. With an order, the value is encoded through its own `encode(to:)`
  /// (it is the dictionary or set being sorted).
  /// - Parameter naming: Whether to find out what the top level is (else `.other`).
  func encodeBuffered<T: Encodable>(
    _ value: T, order: JSONStreamBuffer.Order,
    path: JSONLazyPath = JSONLazyPath(parent: .root, key: nil), into output: inout [UInt8],
    naming: Bool = false
  ) throws -> JSONStreamEncoder.TopLevel {
    let buffer = JSONStreamBuffer()
    buffer.rootOrder = order
    var segment: [UInt8] = []
    swap(&state.pointee.output, &segment)
    defer {
      swap(&state.pointee.output, &segment)
      clearFrames()
      state.pointee.buffer = nil
    }
    reset(buffer: buffer, path: path)
    buffer.beginMember("", outputCount: 0)
    if case .written = order {
      try writeValue(value, path: path, isTopLevel: true)
    } else {
      bindSlot()
      try value.encode(to: self)
    }
    guard state.pointee.slot.isFilled, let text = buffer.assemble(output: &state.pointee.output)
    else { throw Self.nothingEncoded(value) }
    output.append(contentsOf: text)
    return naming ? text.withUnsafeBytes { Self.topLevel(of: $0) } : .other
  }

  /// What the top level of the JSON `text` is.
  private static func topLevel(of text: UnsafeRawBufferPointer) -> JSONStreamEncoder.TopLevel {
    let document = JSONTapeDocument(limits: .unlimited)
    guard document.load(text) else { return .other }
    if let key = document.onlyKey(of: document.root) { return .singleKeyObject(key) }
    if let string = document.string(at: document.root) { return .string(string) }
    return .other
  }

  private static func nothingEncoded<T>(_ value: T) -> EncodingError {
    EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: [], debugDescription: "top-level \(T.self) did not encode any values"))
  }
}
