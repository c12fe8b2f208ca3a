import RewindJSON
import RewindReplayService

/// One tool of the MCP server: its name, what it is for (the text an agent chooses it by), the
/// JSON Schema of its arguments and of its structured result, and how it answers — by asking the
/// replay service of the log it names for typed requests; never by reading session text.
package struct MCPTool: Sendable {
  /// One argument: its name, its schema and what it means.
  package struct Argument: Sendable {
    /// Its name.
    package var name: String
    /// Its JSON Schema (`{"type":"integer","minimum":0}`), without the description.
    package var schema: [JSONMember]
    /// What it means, for the agent.
    package var description: String
    /// Whether the tool needs it.
    package var isRequired = false
  }

  /// The tool's name (`state`).
  package var name: String
  /// A short title for a person.
  package var title: String
  /// What it does and when to use it, for the agent.
  package var description: String
  /// Its arguments.
  package var arguments: [Argument]
  /// The properties its structured result always has, each with its schema (the result is an
  /// object that may have more).
  package var resultProperties: [(name: String, schema: JSONValue)]
  /// How it answers: from its arguments and the log catalog, one JSON object.
  package var run: @Sendable (MCPArguments, MCPLogCatalog) throws(MCPArguments.Failure) -> JSONValue

  /// `inputSchema`: an object of ``arguments``, no others.
  package var inputSchema: JSONValue {
    .object([
      JSONMember("type", .string("object")),
      JSONMember(
        "properties",
        .object(
          arguments.map { argument in
            JSONMember(
              argument.name,
              .object(argument.schema + [JSONMember("description", .string(argument.description))]))
          })),
      JSONMember("required", .array(arguments.filter(\.isRequired).map { .string($0.name) })),
      JSONMember("additionalProperties", .bool(false)),
    ])
  }

  /// `outputSchema`: an object with ``resultProperties`` (required), and maybe more.
  package var outputSchema: JSONValue {
    .object([
      JSONMember("type", .string("object")),
      JSONMember("properties", .object(resultProperties.map { JSONMember($0.name, $0.schema) })),
      JSONMember("required", .array(resultProperties.map { .string($0.name) })),
    ])
  }

  /// The tool as `tools/list` gives it.
  package var listing: JSONValue {
    .object([
      JSONMember("name", .string(name)), JSONMember("title", .string(title)),
      JSONMember("description", .string(description)),
      JSONMember("inputSchema", inputSchema), JSONMember("outputSchema", outputSchema),
      JSONMember(
        "annotations",
        .object([
          JSONMember("title", .string(title)), JSONMember("readOnlyHint", .bool(true)),
          JSONMember("destructiveHint", .bool(false)), JSONMember("idempotentHint", .bool(true)),
          JSONMember("openWorldHint", .bool(false)),
        ])),
    ])
  }
}

extension MCPTool.Argument {
  /// The `log` argument every tool takes.
  static let log = MCPTool.Argument(
    name: "log", schema: [JSONMember("type", .string("string"))],
    description: "The log: its name as the 'logs' tool lists it, its path or its file:// URI. "
      + "Optional when the server serves one log.")

  /// A position argument: an integer or `"first"`/`"last"`.
  static func position(
    _ name: String, _ description: String, required: Bool = false
  ) -> MCPTool.Argument {
    MCPTool.Argument(
      name: name,
      schema: [
        JSONMember(
          "anyOf",
          .array([
            .object([
              JSONMember("type", .string("integer")), JSONMember("minimum", .number("0")),
            ]),
            .object([
              JSONMember("type", .string("string")),
              JSONMember("enum", .array([.string("first"), .string("last")])),
            ]),
          ]))
      ],
      description: description
        + " A position: 0 is the initial state, N the state after action N; or \"first\", "
        + "\"last\".", isRequired: required)
  }

  /// An integer argument within `range`.
  static func integer(
    _ name: String, _ range: ClosedRange<Int>, _ description: String
  ) -> MCPTool.Argument {
    MCPTool.Argument(
      name: name,
      schema: [
        JSONMember("type", .string("integer")),
        JSONMember("minimum", .number(String(range.lowerBound))),
        JSONMember("maximum", .number(String(range.upperBound))),
      ], description: description)
  }

  /// A string argument.
  static func string(
    _ name: String, _ description: String, required: Bool = false, choices: [String]? = nil
  ) -> MCPTool.Argument {
    var schema = [JSONMember("type", .string("string"))]
    if let choices { schema.append(JSONMember("enum", .array(choices.map { .string($0) }))) }
    return MCPTool.Argument(
      name: name, schema: schema, description: description, isRequired: required)
  }
}
