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
  ///   - hardware: The CPU's CRC-32C instruction when it has one (``CRC32C/Hardware/available``,
  ///     which a caller on the hot path reads once and keeps: reading the global costs a
  ///     `swift_once` per call on Linux).
  package static func appendAction(
    seq: UInt64, micros: UInt64, type: UnsafeRawBufferPointer, origin: UnsafeRawBufferPointer,
    action: UnsafeRawBufferPointer, to buffer: ByteBuffer,
    hardware: CRC32C.Hardware? = CRC32C.Hardware.available
  ) {
    let head: StaticString = #"{"c":"00000000","kind":"action","seq":"#
    let time: StaticString = #","time":"#
    let typeKey: StaticString = #","type":""#
    let actionKey: StaticString = #","action":"#
    let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
    let seqDigits = DecimalDigits.count(seq)
    let secondDigits = DecimalDigits.count(seconds)
    // Wrapping sums: every term is a length in memory already, or a digit count.
    let count =
      head.utf8CodeUnitCount &+ seqDigits &+ time.utf8CodeUnitCount &+ secondDigits &+ 7
      &+ typeKey.utf8CodeUnitCount &+ type.count &+ 1 &+ origin.count
      &+ actionKey.utf8CodeUnitCount &+ action.count &+ 2
    let start = buffer.reserve(count)
    var cursor = start
    @inline(__always) func put(_ text: StaticString) {
      UnsafeMutableRawPointer(cursor).copyMemory(
        from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
      cursor += text.utf8CodeUnitCount
    }
    // A short run — the type's name, an action's JSON of a few members, no origin at all — is
    // copied as two overlapping words (or bytes), without a call to `memcpy`.
    @inline(__always) func copyEnds<Word: FixedWidthInteger>(
      _: Word.Type, _ from: UnsafeRawPointer, _ to: UnsafeMutableRawPointer, _ count: Int
    ) {
      let last = count &- MemoryLayout<Word>.size
      let (head, tail) = (
        from.loadUnaligned(as: Word.self), from.loadUnaligned(fromByteOffset: last, as: Word.self)
      )
      to.storeBytes(of: head, as: Word.self)
      to.storeBytes(of: tail, toByteOffset: last, as: Word.self)
    }
    @inline(__always) func put(_ bytes: UnsafeRawBufferPointer) {
      let count = bytes.count
      if let from = bytes.baseAddress, count > 0 {
        let to = UnsafeMutableRawPointer(cursor)
        if count > 16 {
          to.copyMemory(from: from, byteCount: count)
        } else if count >= 8 {
          copyEnds(UInt64.self, from, to, count)
        } else if count >= 4 {
          copyEnds(UInt32.self, from, to, count)
        } else {
          for offset in 0..<count {
            to.storeBytes(
              of: from.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset,
              as: UInt8.self)
          }
        }
      }
      cursor += count
    }
    put(head)
    DecimalDigits.write(seq, count: seqDigits, to: UnsafeMutableRawPointer(cursor))
    cursor += seqDigits
    put(time)
    DecimalDigits.write(seconds, count: secondDigits, to: UnsafeMutableRawPointer(cursor))
    cursor += secondDigits
    cursor.pointee = UInt8(ascii: ".")
    DecimalDigits.writeSix(fraction, to: UnsafeMutableRawPointer(cursor + 1))
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
    let body = UnsafeRawBufferPointer(start: start + bodyOffset, count: count &- bodyOffset &- 2)
    let checksum: UInt32
    if let hardware {
      checksum = hardware.update(0, body)
    } else {
      checksum = CRC32C.updateBySlicing(0, body)
    }
    CRC32C.writeHex(checksum, to: UnsafeMutableRawPointer(start + checksumOffset))
    buffer.commit(count)
  }
}
