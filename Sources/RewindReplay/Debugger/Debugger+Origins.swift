import RewindJSON

/// Where actions came from: the call site of each dispatch and the action that caused it, as the
/// recorder wrote them (``RecordedAction/site``, ``RecordedAction/cause``).
extension Debugger {
  /// Which action caused which, read from the log once.
  public var causeLinks: CauseLinks {
    if let links = cachedCauseLinks { return links }
    let links = log.causeLinks()
    cachedCauseLinks = links
    return links
  }

  /// Action `seq` as `action N` shows it: the recorded action, with its cause's type and the
  /// actions it caused.
  /// - Throws: `.noSuchAction` for a seq outside the log's actions.
  public func action(at seq: Int) throws(DebuggerError) -> ActionDetail {
    guard log.actionCount > 0, (log.firstSeq...log.lastSeq).contains(seq) else {
      throw .noSuchAction(
        seq, valid: log.actionCount > 0 ? log.firstSeq...log.lastSeq : nil)
    }
    let action: RecordedAction
    do { action = try log.action(at: seq) } catch { throw .replay(error) }
    var detail = ActionDetail(
      action: action, isSkipped: timeline?.skippedSeqs.contains(seq) == true)
    if let cause = action.cause { detail.cause = reference(cause) }
    detail.effects = (causeLinks.effects[seq] ?? []).map(reference)
    return detail
  }

  /// Where action `seq` was dispatched (`where N`).
  /// - Throws: `.noSuchAction`, or `.noCallSite` when its line has none.
  public func callSite(of seq: Int) throws(DebuggerError) -> CallSite {
    let detail = try action(at: seq)
    guard let site = detail.action.site else {
      throw .noCallSite(seq: seq, logHasSites: logHasSites)
    }
    return CallSite(seq: seq, type: detail.action.type, site: site)
  }

  /// About `count` actions around the cursor (as ``actions(around:)``), each under the action
  /// that caused it when that one is listed too (`list --tree`).
  public func actionTree(around count: Int) throws(DebuggerError) -> ActionTree {
    let listing = try actions(around: count)
    let links = causeLinks
    let listed = Set(listing.actions.map(\.seq))
    var children: [Int: [RecordedAction]] = [:]
    var roots: [RecordedAction] = []
    for action in listing.actions {
      if let cause = links.causes[action.seq], listed.contains(cause) {
        children[cause, default: []].append(action)
      } else {
        roots.append(action)
      }
    }
    var rows: [ActionTree.Row] = []
    func visit(_ action: RecordedAction, depth: Int) {
      rows.append(ActionTree.Row(action: action, depth: depth, cause: links.causes[action.seq]))
      for child in children[action.seq] ?? [] { visit(child, depth: depth + 1) }
    }
    for root in roots { visit(root, depth: 0) }
    return ActionTree(listing: listing, rows: rows)
  }

  /// Whether any action line of the log has a call site (a log recorded with origins): read
  /// from the first few lines.
  private var logHasSites: Bool {
    guard log.actionCount > 0 else { return false }
    for seq in log.firstSeq...min(log.lastSeq, log.firstSeq + 99)
    where (try? log.action(at: seq))?.site != nil {
      return true
    }
    return false
  }

  /// `seq` with its type.
  private func reference(_ seq: Int) -> ActionReference {
    ActionReference(seq: seq, type: (try? log.actionType(at: seq)) ?? nil)
  }
}

/// An action named by its `seq` and type.
public struct ActionReference: Sendable, Equatable {
  /// Its `seq`.
  public var seq: Int
  /// Its type, when the log has it.
  public var type: String?

  /// `{"seq": N, "type": "NAME"}`.
  public var jsonValue: JSONValue {
    var members = [JSONMember("seq", .number(String(seq)))]
    if let type { members.append(JSONMember("type", .string(type))) }
    return .object(members)
  }
}

/// Where an action was dispatched: the `#fileID` and `#line` of its `dispatch` call.
public struct CallSite: Sendable, Equatable {
  /// The action's `seq`.
  public var seq: Int
  /// The action's type.
  public var type: String?
  /// The `#fileID`: `Module/File.swift`.
  public var file: String
  /// The line, when the site names one.
  public var line: Int?

  /// The call site recorded as `site` (`Module/File.swift:42`).
  public init(seq: Int, type: String?, site: String) {
    self.seq = seq
    self.type = type
    if let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]),
      line > 0
    {
      file = String(site[..<colon])
      self.line = line
    } else {
      file = site
      line = nil
    }
  }

  /// The module: the part of the file id before its first `/`, when it has one.
  public var module: String? {
    file.firstIndex(of: "/").map { String(file[..<$0]) }
  }

  /// The file's name: the part after its last `/`.
  public var fileName: String {
    file.lastIndex(of: "/").map { String(file[file.index(after: $0)...]) } ?? file
  }

  /// `{"seq", "type", "file", "line"}`.
  public var jsonValue: JSONValue {
    var members = [JSONMember("seq", .number(String(seq)))]
    if let type { members.append(JSONMember("type", .string(type))) }
    members.append(JSONMember("file", .string(file)))
    if let line { members.append(JSONMember("line", .number(String(line)))) }
    return .object(members)
  }
}

/// Actions around the cursor, each under its cause when its cause is listed (`list --tree`).
public struct ActionTree: Sendable {
  /// One listed action.
  public struct Row: Sendable {
    /// The action.
    public var action: RecordedAction
    /// How deep it is: 0 for an action whose cause is not listed (or that has none).
    public var depth: Int
    /// Its cause's `seq`, when recorded.
    public var cause: Int?
  }

  /// The listing the tree orders.
  public var listing: ActionListing
  /// The actions in tree order: each cause followed by what it caused, depth first.
  public var rows: [Row]

  /// `{"position", "actions": [...]}` as ``ActionListing/jsonValue``, each action with its
  /// `"depth"`, in tree order.
  public var jsonValue: JSONValue {
    let actions = rows.map { row -> JSONValue in
      let detail = ActionDetail(
        action: row.action, isSkipped: listing.skipped.contains(row.action.seq))
      guard case .object(var members) = detail.jsonValue else { return detail.jsonValue }
      members.append(JSONMember("depth", .number(String(row.depth))))
      return .object(members)
    }
    return .object([
      JSONMember("position", .number(String(listing.cursor))),
      JSONMember("actions", .array(actions)),
    ])
  }
}
