/// Generates the direct JSON path of a target's `Codable` types from its Swift sources: what
/// `rewind-codegen` and the `RewindDirectCoding` build plugin run.
public struct DirectCodingGenerator: Sendable {
  private var declarations = SwiftDeclarations()
  private let moduleName: String?
  private let isMainActorByDefault: Bool

  /// A generator with no sources yet, for the module `moduleName` (which an extension's name
  /// may start with: `extension MyApp.Money`). With `isMainActorByDefault` (a module built with
  /// default main-actor isolation), only types declared `nonisolated` get a conformance.
  public init(moduleName: String? = nil, isMainActorByDefault: Bool = false) {
    self.moduleName = moduleName
    self.isMainActorByDefault = isMainActorByDefault
  }

  private var plan: (plans: [DirectCodingPlan], skipped: [SkippedType]) {
    DirectCodingPlan.plans(
      for: declarations, moduleName: moduleName, isMainActorByDefault: isMainActorByDefault)
  }

  /// Adds one source file of the target; `path` names it in ``report``.
  public mutating func add(source: String, path: String) {
    SwiftDeclarationScanner.scan(source, file: path, into: &declarations)
  }

  /// The target's action catalog (``ActionCatalogPlan``), when its types conform to `Action`.
  private var catalog: ActionCatalogPlan? {
    ActionCatalogPlan.plan(for: declarations)
  }

  /// The generated Swift file: an extension per type that gets a conformance, and the
  /// `RecordedActions` catalog of a target whose actions are types conforming to `Action`.
  public var generatedSource: String {
    DirectCodingEmitter.source(
      for: plan.plans, imports: declarations.imports, catalog: catalog)
  }

  /// One line per `Codable` type: the conformance generated for it, or why none is (the type
  /// then keeps its synthesized `Codable` path), as `file:line: note: …`.
  public var report: [String] {
    let (plans, skipped) = plan
    var lines: [(file: String, line: Int, text: String)] = []
    for plan in plans {
      let halves =
        switch (plan.encodes, plan.decodes) {
        case (true, true): "encodeJSON(to:) and init(json:)"
        case (true, false): "encodeJSON(to:)"
        default: "init(json:)"
        }
      var text = "\(plan.type.qualifiedName): generated \(halves)"
      if !plan.decodingSkipped.isEmpty {
        text += "; not init(json:), for " + plan.decodingSkipped.joined(separator: ", ")
      }
      lines.append((plan.type.file, plan.type.line, text))
    }
    for type in skipped {
      let text = "\(type.name): not generated, for " + type.reasons.joined(separator: ", ")
      lines.append((type.file, type.line, text))
    }
    // An action type the catalog leaves out is skipped when recorded: a warning, which a build
    // shows (notes only `--report` prints).
    let excluded = (catalog?.skipped ?? []).map { type in
      "\(type.file):\(type.line): warning: \(type.name) conforms to \(ActionCatalogPlan.actionProtocol) "
        + "but is not in \(ActionCatalogPlan.name), for " + type.reasons.joined(separator: ", ")
        + "; the recorder will mark its actions as unregistered"
    }
    let listed =
      (catalog?.types).map {
        $0.isEmpty ? [] : ["note: \(ActionCatalogPlan.name) lists " + $0.joined(separator: ", ")]
      } ?? []
    let warnings = declarations.unreadableFiles.map {
      "\($0.location): warning: \($0.problem): the generator cannot match this file's braces, so"
        + " it generates nothing for the target (please report the file)"
    }
    return warnings + excluded
      + lines.sorted { ($0.file, $0.line) < ($1.file, $1.line) }.map {
        "\($0.file):\($0.line): note: \($0.text)"
      } + listed
  }
}
