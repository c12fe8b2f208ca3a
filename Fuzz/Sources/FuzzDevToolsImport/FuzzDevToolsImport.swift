// Fuzzes `replay import`'s reading of a Redux DevTools file — both shapes (the actions export
// with its `payload` and `preloadedState` as JSON text, the lifted state bare or embedded), jsan
// references and markers, FSA and classic actions — strictly and with `lenient`. Whatever it
// accepts must make a log that Rewind's reader opens: the actions are written as plain
// (unchecksummed) action lines after a header, and the log must open in the default mode with
// as many actions. Seeds: Fuzz/Corpus/DevToolsImport (from Fixtures/redux-devtools).
import RewindJSON
import RewindReplay

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDevToolsImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let document = try? JSONParser.parse(bytes, limits: ReaderLimits.default.json) else {
    return 0
  }
  for lenient in [false, true] {
    guard let session = try? ReduxDevTools.import(document, lenient: lenient) else { continue }
    let state = session.initialState ?? .object([])
    var text =
      #"{"kind":"header","format":"rewind","version":1,"session":"fuzz","app":"todo","#
      + #""actionType":"TodoAction","stateType":"TodoState","recordedAt":"2026-11-25T10:00:00Z","#
      + #""firstSeq":1,"state":\#(state.jsonText)}"# + "\n"
    for (n, entry) in session.actions.enumerated() {
      text += #"{"kind":"action","seq":\#(n + 1),"action":\#(entry.action.jsonText)}"# + "\n"
    }
    do {
      let log = try ReplayLog(name: "imported.jsonl", contents: Array(text.utf8))
      if log.actionCount != session.actions.count {
        fatalError("imported \(session.actions.count) actions, the log holds \(log.actionCount)")
      }
    } catch {
      fatalError("an imported session does not make a readable log: \(error)")
    }
  }
  return 0
}
