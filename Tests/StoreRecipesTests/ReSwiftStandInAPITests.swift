import Foundation
import RewindTestSupport
import Testing

/// The stand-in declares what the recipes use of ReSwift with ReSwift's own signatures, so that
/// a recipe that compiles here compiles against ReSwift (6.x): each declaration below, taken from
/// ReSwift's public API (`ReSwift/CoreTypes/`), is in the stand-in's source, spaces aside.
@Suite struct ReSwiftStandInAPITests {
  static let reSwiftDeclarations = [
    "public protocol Action",
    "public struct ReSwiftInit: Action",
    "public typealias DispatchFunction = (Action) -> Void",
    "public typealias Reducer<ReducerStateType> = (_ action: Action, _ state: ReducerStateType?) -> ReducerStateType",
    "public typealias Middleware<State> = (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) -> DispatchFunction",
    "public protocol AnyStoreSubscriber: AnyObject",
    "func _newState(state: Any)",
    "public protocol StoreSubscriber: AnyStoreSubscriber",
    "associatedtype StoreSubscriberStateType",
    "func newState(state: StoreSubscriberStateType)",
    "open class Store<State>",
    "public required init( reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = [], automaticallySkipsRepeats: Bool = true )",
    "open func dispatch(_ action: Action)",
    "open func subscribe<S: StoreSubscriber>(_ subscriber: S) where S.StoreSubscriberStateType == State",
    "open func unsubscribe(_ subscriber: AnyStoreSubscriber)",
  ]

  /// `text` with every run of white space made one space, and none after `(` or `[` or before
  /// `)` or `]`.
  static func normalized(_ text: String) -> String {
    var result = ""
    var pendingSpace = false
    for character in text {
      if character.isWhitespace {
        pendingSpace = true
        continue
      }
      if pendingSpace, !result.isEmpty, !"([".contains(result.last ?? " "),
        !")]".contains(character)
      {
        result.append(" ")
      }
      pendingSpace = false
      result.append(character)
    }
    return result
  }

  @Test func theStandInDeclaresReSwiftsSignatures() throws {
    let source = try String(
      contentsOf: Repository.root.appendingPathComponent(
        "Sources/ReSwiftStandIn/ReSwiftStandIn.swift"), encoding: .utf8)
    let code = source.split(separator: "\n").filter {
      !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
    }.joined(separator: "\n")
    let text = Self.normalized(code)
    for declaration in Self.reSwiftDeclarations {
      #expect(text.contains(Self.normalized(declaration)), "missing: \(declaration)")
    }
  }
}
