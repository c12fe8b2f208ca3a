// A model as an app writes it in a module of its own: a `public init()` on the state (which
// takes its memberwise initialiser away), structs whose memberwise initialisers are internal,
// an enum with a struct payload. GenTestCompilesInAnotherModuleTests compiles this file as the
// module `ShopCore` and a `gen-test` file for it against that module. It imports only Rewind.
import Rewind

/// A cart.
public struct CartState: Codable, Equatable, Sendable {
  /// Its lines, in the order added.
  public var lines: [CartLine]
  /// The sum of the lines' prices, in cents.
  public var total: Int
  /// The coupon applied, if any.
  public var coupon: Coupon?

  /// An empty cart.
  public init() {
    lines = []
    total = 0
    coupon = nil
  }
}

/// A line of a cart.
public struct CartLine: Codable, Equatable, Sendable {
  /// The article.
  public var sku: String
  /// How many.
  public var qty: Int
  /// The price of one, in cents.
  public var price: Int
}

/// A coupon.
public enum Coupon: String, Codable, Equatable, Sendable {
  /// Ten percent off.
  case tenOff
}

/// What a cart does.
public enum CartAction: Codable, Equatable, Sendable {
  /// Adds a line.
  case add(CartLine)
  /// Removes the lines of an article.
  case remove(sku: String)
  /// Applies a coupon.
  case apply(Coupon)
  /// Removes the line at an index (traps on a bad one, as the crash to reproduce).
  case removeAt(Int)
}

/// The cart's reducer.
public let cartReducer = Reducer<CartState, CartAction> { state, action in
  switch action {
  case .add(let line): state.lines.append(line)
  case .remove(let sku): state.lines.removeAll { $0.sku == sku }
  case .apply(let coupon): state.coupon = coupon
  case .removeAt(let index): state.lines.remove(at: index)
  }
  state.total = state.lines.reduce(0) { $0 + $1.qty * $1.price }
}
