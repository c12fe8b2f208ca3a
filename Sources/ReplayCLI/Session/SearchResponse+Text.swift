import RewindJSON
import RewindReplay
import RewindReplayService

extension SearchResponse: TextRenderedResponse {
  /// The matches a line each; or, after a move, where the cursor landed and what changed there.
  func textLines(in service: ReplayService) -> [ResponseLine] {
    switch self {
    case .matches(let query, let result):
      let count = result.matches.count
      guard count > 0 else {
        return [
          ResponseLine(
            text: "nothing in the state at position \(result.position) matches "
              + "'\(inert(query.description))'; search -n looks ahead")
        ]
      }
      var lines = [
        ResponseLine(
          text: "\(result.isTruncated ? "the first \(count)" : String(count)) match"
            + "\(count == 1 ? "" : "es") for '\(inert(query.description))' at position "
            + "\(result.position):")
      ]
      for match in result.matches {
        lines.append(
          ResponseLine(
            text: "  \(inert(match.path.sessionText)): "
              + truncate(inert(match.value.jsonText), toWidth: 80)))
      }
      return lines
    case .moved(let query, let direction, let motion, let isPresent):
      var lines = motion.textLines(in: service)
      guard motion.crash == nil else { return lines }
      let name = "'\(inert(query.description))'"
      let note: String
      switch (direction, isPresent) {
      case (.forward, true): note = "\(name) appears in the state here"
      case (.forward, false): note = "the last match for \(name) goes away here"
      case (.backward, true): note = "the state has \(name) up to here: the next action removes it"
      case (.backward, false): note = "the state lacks \(name) up to here: the next action adds it"
      }
      lines.append(ResponseLine(text: note))
      return lines
    }
  }
}
