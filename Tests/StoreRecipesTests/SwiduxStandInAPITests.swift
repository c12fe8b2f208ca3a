import Testing

/// The stand-in declares what the recipe uses of Swidux with Swidux's own signatures, so that a
/// recipe that compiles here compiles against Swidux: each declaration below, taken from
/// Swidux's public API, is in the stand-in's sources, spaces aside.
@Suite struct SwiduxStandInAPITests {
  static let swiduxDeclarations = [
    "public protocol Action {}",
    "public struct Reducer<State>",
    "public init(reduce: @escaping (inout State, Action) -> Void)",
    "public static func combine(reducers: [Reducer<State>]) -> Reducer<State>",
    "public func lift<T>(_ kp: WritableKeyPath<T, State>) -> Reducer<T>",
    "public struct Middleware<AppState>",
    "public let run: (Store<AppState>) -> (@escaping (Action) -> Void) -> (Action) -> Void",
    "public init( run: @escaping (Store<AppState>) -> (@escaping (Action) -> Void) -> (Action) -> Void )",
    "public final class Store<AppState>",
    "public init( initialState: AppState, reducer: Reducer<AppState> = .init { _, _ in }, middlewares: [Middleware<AppState>] = [] )",
    "public func getState() -> AppState",
    "public func subscribe<Value: Equatable>( _ keyPath: KeyPath<AppState, Value>, onNext: @escaping (Value) -> Void ) -> StoreSubscriptionToken",
    "public func dispatch(_ action: Action)",
    "public final class StoreSubscriptionToken",
  ]

  @Test func theStandInDeclaresSwiduxsSignatures() throws {
    let text = try StandInSource.normalizedCode(of: "Sources/SwiduxStandIn")
    for declaration in Self.swiduxDeclarations {
      #expect(
        text.contains(ReSwiftStandInAPITests.normalized(declaration)), "missing: \(declaration)")
    }
  }
}
