import Foundation
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

@testable import ReplayCLI

@Suite("HTMLExport safety")
struct HTMLExportSafetyTests {
  static let scriptBreakout = "</script><script>alert(1)</script>"
  static let imageHandler = "<img src=x onerror=alert(1)>"

  @Test func textFromTheLogNeverAppearsAsMarkup() throws {
    let titles = [
      Self.scriptBreakout, Self.imageHandler, "<!-- a comment <script>", "Tom & Jerry",
      "line\u{2028}separator\u{2029}paragraph",
    ]
    try CLIFixture.withTemporaryDirectory { directory in
      let log = try ExportLogs.todo(
        titles.map { TodoAction.add(title: $0) } + [.rename(id: 1, title: Self.imageHandler)],
        in: directory)
      let page = try ExportedPage(log)
      let html = page.html
      #expect(!html.contains(Self.scriptBreakout))
      #expect(!html.contains(Self.imageHandler))
      #expect(!html.contains("<script>alert"))
      #expect(!html.contains("<img"))
      #expect(!html.contains("<!--"))
      #expect(!html.contains("Tom & Jerry"))
      #expect(!html.contains("\u{2028}") && !html.contains("\u{2029}"))
      #expect(page.count(of: "<script") == 2)
      #expect(page.count(of: "</script") == 2)
      #expect(html.contains(#"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"#))
      #expect(html.contains(#"\u003cimg src=x onerror=alert(1)\u003e"#))
      #expect(html.contains(#"Tom \u0026 Jerry"#))
      #expect(html.contains(#"line\u2028separator\u2029paragraph"#))
      let recorded = page.array("actions").compactMap {
        $0["action"]?["add"]?["title"]?.stringValue
      }
      #expect(recorded == titles, "the escapes must keep the JSON's value")
    }
  }

  @Test func keysAndValuesOfAnUnknownAppStayData() throws {
    let state = JSONValue.object([
      JSONMember("</script><script>alert(1)</script>", .string(Self.imageHandler)),
      JSONMember("__proto__", .object([JSONMember("polluted", .bool(true))])),
    ])
    let log = try ExportLogs.composed(
      app: "mystery", initialState: state,
      actions: [.object([JSONMember("<b>bold</b>", .string("</SCRIPT >"))])])
    let page = try ExportedPage(log, withApp: false)
    #expect(!page.html.contains("</script><script>"))
    #expect(!page.html.contains("<b>"))
    #expect(!page.html.lowercased().contains("</script >"))
    #expect(page.array("states", "full").first?.elements.last == state)
  }

  @Test func escapingKeepsTheJSONValue() throws {
    let value = JSONValue.array([
      .string("<>&\u{2028}\u{2029}é💸\\<"), .object([JSONMember("<&>", .number("1.0"))]),
    ])
    let escaped = HTMLExportEscaping.scriptSafeJSON(value)
    let text = String(decoding: escaped, as: UTF8.self)
    #expect(text == #"["\u003c\u003e\u0026\u2028\u2029é💸\\\u003c",{"\u003c\u0026\u003e":1.0}]"#)
    #expect(try JSONParser.parse(escaped) == value)
  }

  @Test func scriptAndStyleCannotEndTheirElements() {
    for source in [HTMLExportScript.source, HTMLExportStyle.css, HTMLExportLayout.body] {
      #expect(!source.lowercased().contains("</script"))
      #expect(!source.contains("<!--"))
    }
    #expect(!HTMLExportStyle.css.contains("</"))
  }

  @Test func scriptBuildsTheDocumentWithoutParsingMarkup() {
    for sink in [
      "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
      "setTimeout('", "srcdoc", "DOMParser", "createContextualFragment",
    ] {
      #expect(!HTMLExportScript.source.contains(sink), "the script uses \(sink)")
    }
  }
}
