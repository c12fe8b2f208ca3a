import RewindJSON

extension LogHeader {
  /// Whether the log's actions are an ``ActionCatalog``'s (its `actionType` is
  /// `CatalogAction<…>`): each action is then `{"TypeName": value}`, and a type that is an enum
  /// has its case name one level down (`{"TodoAction": {"check": {…}}}`).
  public var recordsCatalogActions: Bool { actionType.hasPrefix("CatalogAction<") }
}

extension RecordedAction {
  /// Whether the action is of the type `name`: its `type` (the enum case name, or a catalog's
  /// type name), or — in a catalog's log (`inCatalog`) — the case name of a catalog type that is
  /// an enum. Every filter by type reads it: `actions --type`, `tail --type`, `find type=`,
  /// `break type=`.
  public func isOfType(_ name: String, inCatalog: Bool) -> Bool {
    if type == name { return true }
    // An enum case with synthesized `Codable` is `{"case": {…}}`: one key, an object under it
    // (a struct whose one property holds a string or a number is not taken for a case).
    guard inCatalog, let type, case .object(let members)? = payload?[type], members.count == 1,
      case .object = members[0].value
    else { return false }
    return members[0].key == name
  }
}

extension ReplayLog {
  /// Whether `action`, one of this log's, is of the type `name`
  /// (``RecordedAction/isOfType(_:inCatalog:)``).
  public func action(_ action: RecordedAction, isOfType name: String) -> Bool {
    action.isOfType(name, inCatalog: header.recordsCatalogActions)
  }

  /// Whether the action `seq` is of the type `name`, reading only its `type` where that answers
  /// it.
  public func action(at seq: Int, isOfType name: String) throws(ReplayError) -> Bool {
    if try actionType(at: seq) == name { return true }
    guard header.recordsCatalogActions else { return false }
    return action(try action(at: seq), isOfType: name)
  }
}
