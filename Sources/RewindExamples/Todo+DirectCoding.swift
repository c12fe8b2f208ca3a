import Rewind

// The todo app's direct JSON path (docs/recording.md, "Faster than Codable"): the same JSON as
// the synthesized `Codable`, written and read without Codable's containers. `init(from:)` and
// `encode(to:)` stay the definition; `TodoDirectCodingTests` checks the two agree.

extension TodoAction: JSONDirectCodable {
  /// Writes the action as its synthesized `encode(to:)` does: `{"case":{"label":value,…}}`.
  public func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    switch self {
    case .add(let title):
      json.key("add")
      json.beginObject()
      json.key("title")
      json.string(title)
    case .toggle(let id):
      json.key("toggle")
      json.beginObject()
      json.key("id")
      json.integer(id)
    case .rename(let id, let title):
      json.key("rename")
      json.beginObject()
      json.key("id")
      json.integer(id)
      json.key("title")
      json.string(title)
    case .remove(let id):
      json.key("remove")
      json.beginObject()
      json.key("id")
      json.integer(id)
    case .move(let from, let to):
      json.key("move")
      json.beginObject()
      json.key("from")
      json.integer(from)
      json.key("to")
      json.integer(to)
    case .setFilter(let filter):
      json.key("setFilter")
      json.beginObject()
      json.key("_0")
      json.string(filter.rawValue)
    case .clearCompleted:
      json.key("clearCompleted")
      json.beginObject()
    }
    json.endObject()
    json.endObject()
  }

  /// Reads the action as its synthesized `init(from:)` does; throws for anything unusual (the
  /// engine then decodes with `init(from:)`, for its exact error).
  public init(json: JSONDirectReader) throws {
    let (key, value) = try json.onlyMember()
    if key.matches("add") {
      self = .add(title: try value.required("title").string())
    } else if key.matches("toggle") {
      self = .toggle(id: try value.required("id").integer())
    } else if key.matches("rename") {
      self = .rename(
        id: try value.required("id").integer(), title: try value.required("title").string())
    } else if key.matches("remove") {
      self = .remove(id: try value.required("id").integer())
    } else if key.matches("move") {
      self = .move(
        from: try value.required("from").integer(), to: try value.required("to").integer())
    } else if key.matches("setFilter") {
      self = .setFilter(try Filter(json: value.required("_0")))
    } else if key.matches("clearCompleted") {
      _ = try value.member("")  // an object, as the synthesized init(from:) requires
      self = .clearCompleted
    } else {
      throw TodoDirectDecodingError(key: key.string)
    }
  }
}

extension Filter: JSONDirectCodable {
  /// Writes the raw value, as `RawRepresentable`'s `encode(to:)` does.
  public func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.string(rawValue)
  }

  /// Reads the raw value, as `RawRepresentable`'s `init(from:)` does.
  public init(json: JSONDirectReader) throws {
    let text = try json.string()
    guard let filter = Filter(rawValue: text) else { throw TodoDirectDecodingError(key: text) }
    self = filter
  }
}

extension Todo: JSONDirectCodable {
  /// Writes the todo as its synthesized `encode(to:)` does.
  public func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key("id")
    json.integer(id)
    json.key("title")
    json.string(title)
    json.key("done")
    json.bool(done)
    json.endObject()
  }

  /// Reads the todo as its synthesized `init(from:)` does.
  public init(json: JSONDirectReader) throws {
    self.init(
      id: try json.required("id").integer(), title: try json.required("title").string(),
      done: try json.required("done").bool())
  }
}

extension TodoState: JSONDirectCodable {
  /// Writes the state as its synthesized `encode(to:)` does.
  public func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key("todos")
    json.beginArray()
    for todo in todos { try todo.encodeJSON(to: &json) }
    json.endArray()
    json.key("filter")
    json.string(filter.rawValue)
    json.key("nextID")
    json.integer(nextID)
    json.endObject()
  }

  /// Reads the state as its synthesized `init(from:)` does.
  public init(json: JSONDirectReader) throws {
    self.init(
      todos: try json.required("todos").elements().map { try Todo(json: $0) },
      filter: try Filter(json: json.required("filter")),
      nextID: try json.required("nextID").integer())
  }
}

/// A value the todo app's direct path does not read; `init(from:)` decides.
struct TodoDirectDecodingError: Error {
  var key: String
}
