import Foundation
import Rewind

/// The state of the `traps` app: a counter and a list that stays empty.
struct TrapState: Codable, Equatable, Sendable {
  var count = 0
  var items: [Int] = []
  var name: String?
}

/// Actions of the `traps` app: `add` works; every other one stops the process in its own way,
/// so the crash reports of `replay` can be tested on each kind of trap.
enum TrapAction: Codable, Equatable, Sendable {
  case add
  /// `items[count]` on an empty array: `Index out of range`.
  case indexOutOfRange
  /// `name!` on `nil`: `Unexpectedly found nil while unwrapping an Optional value`.
  case forceUnwrapNil
  /// `precondition(false, message)`.
  case precondition(String)
  /// `fatalError(message)`.
  case fatal(String)
  /// `count / items.count` with no items: `Division by zero`.
  case divideByZero
  /// Recursion without end: a stack overflow (`SIGSEGV`).
  case runawayRecursion
  /// A reducer that never returns: it sleeps forever (`replay triage`'s time limit).
  case hang
  /// A reducer that takes memory without end: 64 MiB a step, every page written, none freed
  /// (`replay triage`'s memory limit); after 1 GiB it stops with `fatalError`, so that a run
  /// whose memory limit failed ends on a crash rather than with the machine's memory.
  case grow
  /// `count + by` past `Int.max` (`by > 0`) or, on another line, past `Int.min` (`by <= 0`):
  /// two overflow checks of one action type, which trap without a message (`replay triage`
  /// tells them apart by where they trapped).
  case overflow(Int)
}

/// The reducer of the `traps` app.
let trapReducer = Reducer<TrapState, TrapAction> { state, action in
  switch action {
  case .add: state.count += 1
  case .indexOutOfRange: state.count = state.items[state.count]
  case .forceUnwrapNil: state.count += unwrapped(state.name).count
  case .precondition(let message): Swift.precondition(state.count < 0, message)
  case .fatal(let message): fatalError(message)
  case .divideByZero: state.count = state.count / state.items.count
  case .runawayRecursion:
    var depth = 0
    state.count = descend(&depth)
  case .hang: sleepForever()
  case .grow: growWithoutEnd()
  case .overflow(let by) where by > 0:
    state.count = Int.max + by
  case .overflow(let by):
    state.count = Int.min + by - 1
  }
}

/// `value!`, the trap this app is for.
// swift-format-ignore: NeverForceUnwrap
@inline(never)
func unwrapped(_ value: String?) -> String { value! }

/// Calls itself until the stack runs out (`depth` never gets back to 0); the addition after the
/// call keeps it from being a loop.
@inline(never)
func descend(_ depth: inout Int) -> Int {
  depth &+= 1
  if depth == 0 { return 0 }
  return descend(&depth) &+ depth
}

/// Never returns: sleeps a second at a time, forever.
@inline(never)
func sleepForever() -> Never {
  while true { sleep(1) }
}

/// The memory ``TrapAction/grow`` took, kept where the optimizer cannot drop it.
nonisolated(unsafe) private var grown: [UnsafeMutableRawPointer] = []

/// Takes 64 MiB, writes every page of it and keeps it, every 20 ms; stops the process after
/// 1 GiB.
@inline(never)
func growWithoutEnd() -> Never {
  let step = 64 << 20
  for round in 1...16 {
    guard let block = malloc(step) else { break }
    memset(block, Int32(round), step)
    grown.append(block)
    usleep(20_000)
  }
  fatalError("grew by \(grown.count * 64) MiB and nothing stopped it")
}
