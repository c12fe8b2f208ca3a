import RewindJSON

extension LogLine {
  /// Appends the whole line of an action to `buffer` in one pass, its checksum included — the
  /// recorder's hottest path:
  /// `{"c":"<crc32c>","kind":"action","seq":<seq>,"time":<s.micros>,"type":"<type>"<origin>,"action":<json>}\n`,
  /// the same bytes as ``LogLineBuilder`` gives for those members.
  ///
  /// - Parameters:
  ///   - seq: The action's `seq`.
  ///   - micros: Its `time`, in microseconds since the recording started.
  ///   - type: The action's `type` as a JSON string holds it: escaped, without its quotes.
  ///   - origin: The members that say where the action came from, each with its leading comma
  ///     (`,"site":"…","cause":N`), or nothing.
  ///   - action: The action's JSON.
  ///   - buffer: Where the line goes, after what it holds.
  package static func appendAction(
    seq: UInt64, micros: UInt64, type: UnsafeRawBufferPointer, origin: UnsafeRawBufferPointer,
    action: UnsafeRawBufferPointer, to buffer: ByteBuffer
  ) {
    let head: StaticString = #"{"c":"00000000","kind":"action","seq":"#
    let time: StaticString = #","time":"#
    let typeKey: StaticString = #","type":""#
    let actionKey: StaticString = #","action":"#
    let seconds = micros / 1_000_000
    let seqDigits = DecimalDigits.count(seq)
    let secondDigits = DecimalDigits.count(seconds)
    let count =
      head.utf8CodeUnitCount + seqDigits + time.utf8CodeUnitCount + secondDigits + 7
      + typeKey.utf8CodeUnitCount + type.count + 1 + origin.count + actionKey.utf8CodeUnitCount
      + action.count + 2
    let start = buffer.reserve(count)
    var cursor = start
    @inline(__always) func put(_ text: StaticString) {
      UnsafeMutableRawPointer(cursor).copyMemory(
        from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
      cursor += text.utf8CodeUnitCount
    }
    @inline(__always) func put(_ bytes: UnsafeRawBufferPointer) {
      if let base = bytes.baseAddress {
        UnsafeMutableRawPointer(cursor).copyMemory(from: base, byteCount: bytes.count)
      }
      cursor += bytes.count
    }
    put(head)
    DecimalDigits.write(seq, count: seqDigits, to: UnsafeMutableRawPointer(cursor))
    cursor += seqDigits
    put(time)
    DecimalDigits.write(seconds, count: secondDigits, to: UnsafeMutableRawPointer(cursor))
    cursor += secondDigits
    cursor.pointee = UInt8(ascii: ".")
    DecimalDigits.write(micros % 1_000_000, count: 6, to: UnsafeMutableRawPointer(cursor + 1))
    cursor += 7
    put(typeKey)
    put(type)
    cursor.pointee = UInt8(ascii: "\"")
    cursor += 1
    put(origin)
    put(actionKey)
    put(action)
    cursor[0] = UInt8(ascii: "}")
    cursor[1] = UInt8(ascii: "\n")
    let body = UnsafeRawBufferPointer(start: start + bodyOffset, count: count - bodyOffset - 2)
    CRC32C.writeHex(CRC32C.checksum(body), to: UnsafeMutableRawPointer(start + checksumOffset))
    buffer.commit(count)
  }
}
