import Foundation
import RewindTestSupport
import Testing

/// The stand-in declares what the recipe uses of Recombine with Recombine's own signatures (the
/// releases whose store is `Store<State, RawAction, RefinedAction>`), so that a recipe that
/// compiles here compiles against Recombine: each declaration below, taken from Recombine's
/// public API, is in the stand-in's sources, spaces aside. (Where it differs — no `publishOn:`
/// scheduler, side effects as closures where there is no Combine — docs/recipes/recombine.md
/// says so.)
@Suite struct RecombineStandInAPITests {
  static let recombineDeclarations = [
    "public protocol Reducer",
    "associatedtype Transform",
    "var transform: Transform { get }",
    "func reduce(state: State, action: Action) -> State",
    "func concat<R: Reducer>(_ other: R) -> Self where R.Transform == Transform",
    "public struct PureReducer<State, Action>: Reducer",
    "public typealias Transform = (_ state: State, _ action: Action) -> State",
    "public struct MutatingReducer<State, Action>: Reducer",
    "public typealias Transform = (_ state: inout State, _ action: Action) -> Void",
    "public func callAsFunction(state: inout State, action: Action)",
    "public struct Middleware<State, Input, Output>",
    "public init() where Input == Output",
    "public init<P: Publisher>( _ transform: @escaping (StatePublisher, Input) -> P ) where P.Output == Output, P.Failure == Never",
    "public class Store<State, RawAction, RefinedAction>",
    "extension Store: ObservableObject",
    "public private(set) var state: State",
    "where R.State == State, R.Action == RefinedAction",
    "open func dispatch(refined actions: RefinedAction...)",
    "open func dispatch<S: Sequence>(refined actions: S) where S.Element == RefinedAction",
    "open func dispatch(raw actions: RawAction...)",
    "open func dispatch<S: Sequence>(raw actions: S) where S.Element == RawAction",
  ]

  @Test func theStandInDeclaresRecombinesSignatures() throws {
    let text = try StandInSource.normalizedCode(of: "Sources/RecombineStandIn")
    for declaration in Self.recombineDeclarations {
      #expect(
        text.contains(ReSwiftStandInAPITests.normalized(declaration)), "missing: \(declaration)")
    }
  }
}

/// A stand-in's sources, as ``ReSwiftStandInAPITests`` compares them with a library's API.
enum StandInSource {
  /// The code of every Swift file under `folder` (comments left out), white space normalized.
  static func normalizedCode(of folder: String) throws -> String {
    let directory = Repository.root.appendingPathComponent(folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".swift") }.sorted()
    #expect(!files.isEmpty, "no Swift file in \(folder)")
    let code = try files.map { file in
      try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
        .split(separator: "\n")
        .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        .joined(separator: "\n")
    }
    return ReSwiftStandInAPITests.normalized(code.joined(separator: "\n"))
  }
}
