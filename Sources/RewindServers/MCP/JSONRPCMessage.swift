import RewindJSON

/// One JSON-RPC 2.0 message as MCP carries it, one line of stdio each: a request (with an `id`),
/// a notification (without), or a client's response to the server (ignored: this server sends
/// no requests).
package enum JSONRPCMessage: Equatable, Sendable {
  /// A request: its id (a string or a number, as sent), method and params.
  case request(id: JSONValue, method: String, params: JSONValue?)
  /// A notification: no answer is sent.
  case notification(method: String, params: JSONValue?)
  /// A response to a request of the server's.
  case response

  /// JSON-RPC's error codes, and MCP's.
  package enum ErrorCode: Int, Sendable {
    /// The line is not JSON.
    case parseError = -32700
    /// The JSON is not a JSON-RPC request.
    case invalidRequest = -32600
    /// No such method.
    case methodNotFound = -32601
    /// The method's params are wrong.
    case invalidParams = -32602
    /// The server failed.
    case internalError = -32603
    /// MCP 2026-07-28: the request's protocol version is not one the server speaks.
    case unsupportedProtocolVersion = -32022
  }

  /// Why a parsed value is not a message, and the id to answer with when one was readable.
  package struct Invalid: Error, Equatable, Sendable {
    /// The request's id, or `null`.
    package var id: JSONValue
    /// What is wrong.
    package var message: String
  }

  /// The message `value` is.
  /// - Throws: ``Invalid`` for a batch (MCP has none since 2025-06-18), a value that is not an
  ///   object, a wrong `jsonrpc`, a missing or non-string `method`, an id that is neither a
  ///   string nor an integer, or params that are neither an object nor an array.
  package init(_ value: JSONValue) throws(Invalid) {
    guard case .object = value else {
      if case .array = value {
        throw Invalid(
          id: .null,
          message: "batches are not part of MCP (since 2025-06-18): send one request a line")
      }
      throw Invalid(id: .null, message: "a message must be a JSON object, not \(value.kindName)")
    }
    let id = value["id"]
    var answerID = JSONValue.null
    if let id {
      switch id {
      case .string: answerID = id
      case .number(let text) where Int(text) != nil: answerID = id
      default:
        throw Invalid(id: .null, message: "'id' must be a string or an integer, not \(id.kindName)")
      }
    }
    guard value["jsonrpc"] == .string("2.0") else {
      throw Invalid(id: answerID, message: "'jsonrpc' must be \"2.0\"")
    }
    guard let method = value["method"] else {
      if id != nil, value["result"] != nil || value["error"] != nil {
        self = .response
        return
      }
      throw Invalid(id: answerID, message: "a request needs a 'method'")
    }
    guard case .string(let name) = method else {
      throw Invalid(id: answerID, message: "'method' must be a string, not \(method.kindName)")
    }
    let params = value["params"]
    if let params {
      switch params {
      case .object, .array: break
      default:
        throw Invalid(
          id: answerID, message: "'params' must be an object or an array, not \(params.kindName)")
      }
    }
    if id != nil {
      self = .request(id: answerID, method: name, params: params)
    } else {
      self = .notification(method: name, params: params)
    }
  }

  /// The line of a successful response to request `id`.
  package static func result(_ result: JSONValue, id: JSONValue) -> [UInt8] {
    line(
      .object([
        JSONMember("jsonrpc", .string("2.0")), JSONMember("id", id), JSONMember("result", result),
      ]))
  }

  /// The line of an error response to request `id` (`null` when it could not be read).
  package static func error(
    _ code: ErrorCode, _ message: String, id: JSONValue, data: JSONValue? = nil
  ) -> [UInt8] {
    var error = [
      JSONMember("code", .number(String(code.rawValue))), JSONMember("message", .string(message)),
    ]
    if let data { error.append(JSONMember("data", data)) }
    return line(
      .object([
        JSONMember("jsonrpc", .string("2.0")), JSONMember("id", id),
        JSONMember("error", .object(error)),
      ]))
  }

  /// `value` as one line: compact JSON and a newline (JSON text never holds a raw newline).
  private static func line(_ value: JSONValue) -> [UInt8] {
    var bytes: [UInt8] = []
    value.write(into: &bytes)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }
}
