import Foundation
import Rewind

/// The state of the "journal" example app: entries with the time they were written.
public struct JournalState: Codable, Equatable, Sendable {
  /// The entries, oldest first.
  public var entries: [JournalEntry] = []

  /// Creates a journal state.
  public init(entries: [JournalEntry] = []) { self.entries = entries }
}

/// One journal entry.
public struct JournalEntry: Codable, Equatable, Sendable {
  /// A unique id.
  public var id: UUID
  /// What was written.
  public var text: String
  /// When it was written.
  public var writtenAt: Date

  /// Creates an entry.
  public init(id: UUID, text: String, writtenAt: Date) {
    self.id = id
    self.text = text
    self.writtenAt = writtenAt
  }
}

/// The actions of the "journal" example app.
///
/// The example of recording nondeterminism (`docs/determinism.md`): the clock and the random id
/// are read **when the action is created**, outside the reducer, and travel in the action — so
/// the log holds them and replay reproduces the same state.
public enum JournalAction: Codable, Equatable, Sendable {
  /// Adds an entry with this id, text and time.
  case write(id: UUID, text: String, at: Date)
  /// Removes the entry with this id; an unknown id changes nothing.
  case delete(id: UUID)

  /// Creates a `write` action, reading the clock and making a random id now — the one place
  /// where the app touches nondeterminism.
  public static func write(_ text: String, now: Date = Date(), id: UUID = UUID()) -> JournalAction {
    .write(id: id, text: text, at: now)
  }
}

/// The reducer of the "journal" example app: a pure function of the state and the action.
public let journalReducer = Reducer<JournalState, JournalAction> { state, action in
  switch action {
  case .write(let id, let text, let date):
    state.entries.append(JournalEntry(id: id, text: text, writtenAt: date))
  case .delete(let id):
    state.entries.removeAll { $0.id == id }
  }
}

/// The counter-example: a journal reducer that reads the clock itself. Replaying its log gives
/// other dates than the recorded run, and `replay verify` reports the divergence
/// (`docs/determinism.md`). Do not write reducers like this.
public let clockReadingJournalReducer = Reducer<JournalState, JournalAction> { state, action in
  switch action {
  case .write(let id, let text, _):
    state.entries.append(JournalEntry(id: id, text: text, writtenAt: Date()))  // nondeterministic
  case .delete(let id):
    state.entries.removeAll { $0.id == id }
  }
}
