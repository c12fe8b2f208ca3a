import Rewind
import Testing

/// A state that is the list of the actions reduced so far.
private struct Tape: Equatable, Sendable {
  var actions: [String] = []
}

/// A store over ``Tape`` whose reducer and subscriber write to `events`.
private func makeStore(
  events: StoreTestLog<String>, middleware: [Middleware<Tape, String>]
) -> (Store<Tape, String>, Subscription) {
  let reducer = Reducer<Tape, String> { state, action in
    events.append("reduce \(action)")
    state.actions.append(action)
  }
  let store = Store(initialState: Tape(), reducer: reducer, middleware: middleware)
  let subscription = store.subscribe { state in
    events.append("notify \(state.actions.joined(separator: ","))")
  }
  return (store, subscription)
}

/// A middleware that writes `"<name> <action>"` to `events` and passes the action on.
private func passing(_ name: String, to events: StoreTestLog<String>) -> Middleware<Tape, String> {
  Middleware(name: name) { action, _ in
    events.append("\(name) \(action)")
    return action
  }
}

@Suite struct MiddlewareTests {
  @Test func middlewareRunsInDeclarationOrderBeforeTheReducer() {
    let events = StoreTestLog<String>()
    let (store, subscription) = makeStore(
      events: events,
      middleware: [
        passing("first", to: events), passing("second", to: events),
        passing("third", to: events),
      ])
    store.dispatch("a")
    #expect(
      events.elements == ["first a", "second a", "third a", "reduce a", "notify a"])
    _ = subscription
  }

  @Test func middlewareReturningNilDropsTheAction() {
    let events = StoreTestLog<String>()
    let dropB = Middleware<Tape, String>(name: "drop b") { action, _ in
      events.append("drop-b sees \(action)")
      return action == "b" ? nil : action
    }
    let (store, subscription) = makeStore(
      events: events, middleware: [dropB, passing("after", to: events)])
    store.dispatch("b")
    #expect(events.elements == ["drop-b sees b"])
    #expect(store.state == Tape())
    #expect(store.reducedCount == 0)

    store.dispatch("c")
    #expect(
      events.elements == ["drop-b sees b", "drop-b sees c", "after c", "reduce c", "notify c"])
    #expect(store.state == Tape(actions: ["c"]))
    #expect(store.reducedCount == 1)
    _ = subscription
  }

  @Test func middlewareReturningAnotherActionReplacesIt() {
    let events = StoreTestLog<String>()
    let uppercase = Middleware<Tape, String>(name: "uppercase") { action, _ in
      action.uppercased()
    }
    let (store, subscription) = makeStore(
      events: events, middleware: [uppercase, passing("after", to: events)])
    store.dispatch("a")
    #expect(events.elements == ["after A", "reduce A", "notify A"])
    #expect(store.state == Tape(actions: ["A"]))
    _ = subscription
  }

  @Test func dispatchFromMiddlewareRunsAfterTheCurrentActionIsReducedAndNotified() {
    let events = StoreTestLog<String>()
    let followUp = Middleware<Tape, String>(name: "follow-up") { action, context in
      events.append("follow-up \(action)")
      if action == "a" {
        context.dispatch("b")
        context.dispatch("c")
      }
      return action
    }
    let (store, subscription) = makeStore(events: events, middleware: [followUp])
    store.dispatch("a")
    // Everything, including the queued actions, has run when `dispatch` returns.
    #expect(
      events.elements == [
        "follow-up a", "reduce a", "notify a",
        "follow-up b", "reduce b", "notify a,b",
        "follow-up c", "reduce c", "notify a,b,c",
      ])
    #expect(store.reducedCount == 3)
    _ = subscription
  }

  @Test func actionDispatchedByMiddlewareIsQueuedEvenWhenTheCurrentOneIsDropped() {
    let events = StoreTestLog<String>()
    let redirect = Middleware<Tape, String>(name: "redirect") { action, context in
      guard action == "old" else { return action }
      context.dispatch("new")
      return nil
    }
    let (store, subscription) = makeStore(events: events, middleware: [redirect])
    store.dispatch("old")
    #expect(events.elements == ["reduce new", "notify new"])
    _ = subscription
  }

  @Test func contextStateIsTheStateBeforeTheAction() {
    let seen = StoreTestLog<[String]>()
    let spy = Middleware<Tape, String>(name: "spy") { action, context in
      seen.append(context.state.actions)
      return action
    }
    let store = Store(
      initialState: Tape(),
      reducer: Reducer { state, action in state.actions.append(action) },
      middleware: [spy])
    store.dispatch("a")
    store.dispatch("b")
    #expect(seen.elements == [[], ["a"]])
  }

  @Test func addMiddlewareAppliesFromTheNextDispatchAfterTheExistingOnes() {
    let events = StoreTestLog<String>()
    let (store, subscription) = makeStore(
      events: events, middleware: [passing("initial", to: events)])
    store.dispatch("a")
    store.addMiddleware(passing("added", to: events))
    store.dispatch("b")
    #expect(
      events.elements == [
        "initial a", "reduce a", "notify a",
        "initial b", "added b", "reduce b", "notify a,b",
      ])
    _ = subscription
  }

  @Test func middlewareAddedWhileAnActionIsHandledSeesOnlyLaterActions() {
    let events = StoreTestLog<String>()
    let (store, subscription) = makeStore(events: events, middleware: [])
    let installer = Middleware<Tape, String>(name: "installer") { [weak store] action, _ in
      if action == "a" { store?.addMiddleware(passing("added", to: events)) }
      return action
    }
    store.addMiddleware(installer)
    store.dispatch("a")
    store.dispatch("b")
    #expect(
      events.elements == ["reduce a", "notify a", "added b", "reduce b", "notify a,b"])
    _ = subscription
  }

  @Test func middlewareCanBeRunAloneWithAHandMadeContext() {
    let dispatched = StoreTestLog<String>()
    let context = MiddlewareContext<Tape, String>(
      state: { Tape(actions: ["earlier"]) },
      dispatch: { dispatched.append($0) })
    let middleware = Middleware<Tape, String>(name: "echo") { action, context in
      context.dispatch("\(action) after \(context.state.actions.joined())")
      return action == "drop" ? nil : action + "!"
    }
    #expect(middleware.name == "echo")
    #expect(middleware.handle("go", context: context) == "go!")
    #expect(middleware.handle("drop", context: context) == nil)
    #expect(dispatched.elements == ["go after earlier", "drop after earlier"])
  }
}
