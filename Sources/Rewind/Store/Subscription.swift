/// A token for a store subscription: the subscription ends when it is cancelled or released.
///
/// Keep it for as long as you want updates:
/// ```swift
/// let subscription = store.subscribe(\.count) { count in label.text = "\(count)" }
/// // …
/// subscription.cancel()  // or let it go out of scope
/// ```
public final class Subscription: Sendable {
  private let onCancel: Locked<(@Sendable () -> Void)?>

  /// Creates a token that runs `onCancel` once, on the first `cancel()` or on release.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Locked(onCancel)
  }

  /// Ends the subscription. Calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { slot -> (@Sendable () -> Void)? in
      let action = slot
      slot = nil
      return action
    }
    action?()
  }

  /// Whether the subscription has been cancelled.
  public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

  deinit { cancel() }
}
