import Testing

@testable import ReplayCLI

@Suite("HTMLExportDigest")
struct HTMLExportDigestTests {
  private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      String(repeating: "a", count: 1_000),
      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
    ),
    (
      String(repeating: "a", count: 1_000_000),
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    ),
  ])
  func sha256MatchesTheStandardVectors(message: String, digest: String) {
    #expect(hex(HTMLExportDigest.sha256(Array(message.utf8))) == digest)
  }

  @Test func cspSourceIsTheBase64Digest() {
    #expect(
      HTMLExportDigest.cspSource(for: "abc")
        == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
  }
}
