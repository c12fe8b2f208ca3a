import RewindServers

extension TUIModel {
  /// Takes in what the listener reported (`replay tui --listen`): an app not seen before joins
  /// ``liveApps`` without taking the view from the app shown; another event goes to the status
  /// of the app it is about. What it says goes on the message row when nothing else is there.
  /// - Returns: Whether anything shown changed.
  @discardableResult
  func note(_ event: LiveListener.Event) -> Bool {
    guard !liveApps.isEmpty else { return false }
    let before = liveApps
    var line: TUIMessageLine?
    switch event {
    case .connected(let app) where !liveApps.contains(where: { $0.session == app.hello.session }):
      let status = TUILiveStatus(hello: app.hello, path: app.path)
      liveApps.append(status)
      line = TUIMessageLine(
        text: "another app connected: \(status.name); a shows it (app \(liveApps.count) of "
          + "\(liveApps.count)); saved to \(app.path)",
        isError: false)
    case .connected(let app), .disconnected(let app, _), .received(let app, _, _),
      .dispatchAnswered(let app, _):
      guard let index = liveApps.firstIndex(where: { $0.session == app.hello.session }) else {
        return false
      }
      line = liveApps[index].note(event)
      if index != shownApp, case .received = event { line = nil }
    case .refused:
      line = liveApps[shownApp].note(event)
    }
    var changed = liveApps != before
    if let line, prompt == nil, messages.isEmpty {
      messages = [line]
      changed = true
    }
    return changed
  }

  /// The header's words on the apps, when more than one connected: `app 1 of 2`, with how many
  /// were never shown (`1 new: a shows it`) and how many are gone.
  var appsText: String? {
    guard liveApps.count > 1 else { return nil }
    var text = "app \(shownApp + 1) of \(liveApps.count)"
    let new = liveApps.filter { !$0.wasShown }.count
    if new > 0 { text += ", \(new) new (a)" }
    let gone = liveApps.filter { $0.disconnected != nil }.count
    if gone > 0 { text += ", \(gone) disconnected" }
    return text
  }

  /// Shows the next (`delta` 1) or previous (-1) running app (`a` and `A`), in the order they
  /// connected, as it was left: each keeps its cursor, watchpoints and scroll, and one at its
  /// end follows it to the actions that arrived meanwhile (the feed reads them next).
  func switchApp(by delta: Int) {
    guard liveApps.count > 1 else {
      report(
        live.map { "only \($0.app) is connected: a / A switch apps once another one connects" }
          ?? "a / A switch between running apps: replay tui --listen, with several connected")
      return
    }
    let target = ((shownApp + delta) % liveApps.count + liveApps.count) % liveApps.count
    let next: TUIAppView
    if let parked = parkedViews[liveApps[target].session] {
      next = parked
    } else {
      guard let liveSource else { return }
      switch liveSource.open(liveApps[target].path) {
      case .success(let opened):
        next = TUIAppView(opened: opened)
      case .failure(let failure):
        report(
          "\(liveApps[target].app)'s log cannot be read yet: \(failure.diagnostic.message)",
          isError: true)
        return
      }
    }
    parkedViews[liveApps[shownApp].session] = parkView()
    parkedViews[liveApps[target].session] = nil
    shownApp = target
    liveApps[target].wasShown = true
    show(next)
    report("viewing app \(target + 1) of \(liveApps.count): \(liveApps[target].name)")
  }
}
