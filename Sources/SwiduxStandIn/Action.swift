// A stand-in for Swidux (github.com/clmntcrl/swidux) with the shape of its public API — the
// protocol `Action`, `Reducer<State>` over `inout` state with `combine(reducers:)` and
// `lift(_:)`, `Middleware<AppState>` wrapping the dispatch function, and a `Store` whose
// key-path subscriptions are held by tokens — so that the Swidux recipe compiles against the
// names an app sees with both Swidux and Rewind imported. No Swidux code is in it; the package
// depends on nothing.

/// An action: any type that conforms (Swidux apps declare enums, `enum CounterAction: Action`,
/// and reducers match them with `case CounterAction.increment`).
public protocol Action {}
