import Foundation

/// The permission bits of the file at `path` (`0o600` for a file only its owner may read).
/// - Throws: The error of `FileManager.attributesOfItem`.
func fileMode(_ path: String) throws -> Int {
  let attributes = try FileManager.default.attributesOfItem(atPath: path)
  return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o7777
}
