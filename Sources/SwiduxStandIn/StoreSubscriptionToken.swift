/// Keeps a subscription alive: releasing the token ends it (keep it for as long as the
/// subscriber should hear about changes).
public final class StoreSubscriptionToken {
  private let onDeinit: () -> Void

  init(onDeinit: @escaping () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit {
    onDeinit()
  }
}
