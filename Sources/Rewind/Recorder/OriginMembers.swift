import RewindJSON

/// The members of the next action's line that say where it came from (``ActionOrigin``):
/// `,"site":"Module/File.swift:42","cause":38`, or `,"via":"viewer"` for an action the live
/// viewer sent, written into a buffer kept from one action to the next, which the line is
/// assembled with (docs/log-format.md).
struct OriginMembers {
  /// The members' bytes, each with its leading comma; empty when there is no origin to write.
  let bytes = ByteBuffer()
  /// The origin whose site and cause ``bytes`` holds, for the line builder of the full path.
  private(set) var origin: ActionOrigin?
  /// Whether the action came from the live viewer (`"via":"viewer"`).
  private(set) var viaViewer = false

  /// Holds `origin`'s members: its site and cause when `writesSite` (the options record
  /// origins), and `via` for an action the viewer sent (whatever the options); none for `nil`.
  mutating func set(_ origin: ActionOrigin?, writesSite: Bool) {
    bytes.removeAll()
    viaViewer = origin?.viewerRequest != nil
    if viaViewer {
      self.origin = nil
      bytes.append(#","via":"viewer""#)
      return
    }
    self.origin = writesSite ? origin : nil
    guard let origin = self.origin else { return }
    bytes.append(#","site":"#)
    let file = origin.file
    if !file.hasPointerRepresentation
      || !bytes.appendQuotedIfPlain(file.utf8Start, count: file.utf8CodeUnitCount)
    {
      bytes.appendJSONString(file.description)
    }
    // The site is one string, `file:line`: the file's closing quote moves after the line.
    bytes.dropLast(1)
    bytes.append(UInt8(ascii: ":"))
    bytes.appendDecimal(UInt64(origin.line))
    bytes.append(UInt8(ascii: "\""))
    if let cause = origin.cause, cause > 0 {
      bytes.append(#","cause":"#)
      bytes.appendDecimal(UInt64(cause))
    }
  }
}
