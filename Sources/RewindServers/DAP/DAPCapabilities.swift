import RewindJSON

/// What the adapter tells a client it can do, in the `initialize` response.
package enum DAPCapabilities {
  /// The commands the adapter answers (an unknown one's error lists them).
  package static let commands = [
    "initialize", "launch", "configurationDone", "threads", "stackTrace", "scopes", "variables",
    "next", "stepIn", "stepOut", "stepBack", "continue", "reverseContinue", "pause", "goto",
    "gotoTargets", "setBreakpoints", "setFunctionBreakpoints", "setExceptionBreakpoints",
    "dataBreakpointInfo", "setDataBreakpoints", "evaluate", "exceptionInfo", "disconnect",
    "terminate",
  ]

  /// The capabilities: step back and reverse continue, data, function and conditional
  /// breakpoints, goto, exception info, `terminate`; no hover evaluation, no `setVariable`.
  package static var jsonValue: JSONValue {
    let flags: [(String, Bool)] = [
      ("supportsConfigurationDoneRequest", true),
      ("supportsStepBack", true),
      ("supportsDataBreakpoints", true),
      ("supportsFunctionBreakpoints", true),
      ("supportsConditionalBreakpoints", true),
      ("supportsGotoTargetsRequest", true),
      ("supportsExceptionInfoRequest", true),
      ("supportsTerminateRequest", true),
      ("supportsEvaluateForHovers", false),
      ("supportsSetVariable", false),
      ("supportsRestartRequest", false),
      ("supportsStepInTargetsRequest", false),
    ]
    return .object(flags.map { JSONMember($0.0, .bool($0.1)) })
  }
}
