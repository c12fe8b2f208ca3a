import Foundation
import RewindTestSupport
import Testing

/// docs/recording.md's table of what each recipe asks of an app states the count of statements
/// marked `// glue` in the compiled recipe (in `Sources/StoreRecipes/`, or a recipe target of its
/// own such as `Sources/SwiduxRecipe/`).
@Suite struct StoreRecipeGlueTests {
  @Test func theRecipeTableCountsTheGlueOfEachRecipe() throws {
    let doc = try String(
      contentsOf: Repository.root.appendingPathComponent("docs/recording.md"), encoding: .utf8)
    var checked = 0
    for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 4, cells[2].hasPrefix("`Sources/"),
        let stated = Int(cells[3])
      else { continue }
      let path = String(cells[2].dropFirst().dropLast())
      // The recipe's page names the same count.
      let page = String(cells[1].drop { $0 != "(" }.dropFirst().prefix { $0 != ")" })
      let pageText = try String(
        contentsOf: Repository.root.appendingPathComponent("docs/" + page), encoding: .utf8)
      #expect(pageText.contains("Lines of glue: \(stated)"), "docs/\(page)")
      let source = try String(
        contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
      let marked = source.split(separator: "\n").filter {
        $0.trimmingCharacters(in: .whitespaces) == "// glue"
      }.count
      #expect(
        marked == stated, "\(path): \(marked) statements marked // glue, the table says \(stated)")
      checked += 1
    }
    #expect(checked == 6)
  }
}
