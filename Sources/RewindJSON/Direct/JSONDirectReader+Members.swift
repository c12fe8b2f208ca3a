// One member of an object at a time, read as the type the caller's expression needs: what
// generated conformances (rewind-codegen) call, and handy by hand. An `Optional` is `nil` when
// the member is missing or `null`, as a synthesized `init(from:)` reads it (`decodeIfPresent`).
//
// `String`, `Int`, `Bool` and `Double` (and their optionals) have overloads of their own; every
// other type goes through the one generic `read(_:)`, which picks at run time: a type with a
// direct path, an optional, an array or a scalar of another width is read from the tape, and
// anything else through `init(from:)` with Rewind's decoder. (Overloads by return type alone
// would leave the compiler unable to choose between generic ones.)

extension JSONDirectReader {
  /// The member `name` as a string.
  /// - Throws: When the value is not an object, has no such member, or it is not a string.
  public func read(_ name: StaticString) throws -> String {
    try required(name).string()
  }

  /// The member `name` as an `Int`.
  /// - Throws: When there is no such member or it is not an `Int`.
  public func read(_ name: StaticString) throws -> Int {
    try required(name).integer()
  }

  /// The member `name` as a `Bool`.
  /// - Throws: When there is no such member or it is not `true` or `false`.
  public func read(_ name: StaticString) throws -> Bool {
    try required(name).bool()
  }

  /// The member `name` as a `Double`.
  /// - Throws: When there is no such member or it is not a number.
  public func read(_ name: StaticString) throws -> Double {
    try required(name).double()
  }

  /// The member `name` as a string; `nil` when it is missing or `null`.
  /// - Throws: When the value is not an object, or the member is another kind of value.
  public func read(_ name: StaticString) throws -> String? {
    try present(name)?.string()
  }

  /// The member `name` as an `Int`; `nil` when it is missing or `null`.
  /// - Throws: When the member is not an `Int`.
  public func read(_ name: StaticString) throws -> Int? {
    try present(name)?.integer()
  }

  /// The member `name` as a `Bool`; `nil` when it is missing or `null`.
  /// - Throws: When the member is not `true` or `false`.
  public func read(_ name: StaticString) throws -> Bool? {
    try present(name)?.bool()
  }

  /// The member `name` as a `Double`; `nil` when it is missing or `null`.
  /// - Throws: When the member is not a number.
  public func read(_ name: StaticString) throws -> Double? {
    try present(name)?.double()
  }

  /// The member `name` as any `Decodable` type; for an `Optional`, `nil` when the member is
  /// missing or `null`.
  /// - Throws: When the value is not an object, a member that is not optional is missing, or
  ///   the type's error.
  public func read<T: Decodable>(_ name: StaticString) throws -> T {
    let entry = try entry()
    guard entry.kind == .object else { throw failure("not an object") }
    return try Self.value(T.self, from: member(name), in: self)
  }

  /// The member `name` unless it is missing or `null`.
  private func present(_ name: StaticString) throws(JSONDirectReaderError) -> JSONDirectReader? {
    guard let value = try member(name), !value.isNull else { return nil }
    return value
  }

  /// `reader`'s value as `T`; `reader` is `nil` for a missing member of `object`.
  static func value<T: Decodable>(
    _ type: T.Type, from reader: JSONDirectReader?, in object: JSONDirectReader
  ) throws -> T {
    if let member = T.self as? any JSONDirectMember.Type {
      guard let value = try member.init(member: reader, in: object) as? T else {
        throw object.failure("a member read as another type")
      }
      return value
    }
    guard let reader else { throw object.failure("a member is missing") }
    return try reader.decode(T.self)
  }

  /// Checks that the value is an object, as a synthesized `init(from:)` requires of an enum
  /// case without associated values (`{"case":{}}`); its members are not read.
  /// - Throws: When it is not an object.
  public func requireObject() throws(JSONDirectReaderError) {
    _ = try member("")
  }

  /// An error at this value, for an `init(json:)` that finds what it does not read (the
  /// engine then decodes with `init(from:)`, for Codable's own error).
  public func failure(_ reason: String) -> JSONDirectReaderError {
    JSONDirectReaderError(reason: reason, offset: (try? entry())?.start ?? 0)
  }
}

/// A type that the generic ``JSONDirectReader/read(_:)`` reads from the tape itself.
protocol JSONDirectMember {
  /// Reads the member's value; `reader` is `nil` when `object` has no such member.
  init(member reader: JSONDirectReader?, in object: JSONDirectReader) throws
}

extension Optional: JSONDirectMember where Wrapped: Decodable {
  init(member reader: JSONDirectReader?, in object: JSONDirectReader) throws {
    guard let reader, !reader.isNull else {
      self = .none
      return
    }
    self = try JSONDirectReader.value(Wrapped.self, from: reader, in: object)
  }
}

extension Array: JSONDirectMember where Element: Decodable {
  init(member reader: JSONDirectReader?, in object: JSONDirectReader) throws {
    guard let reader else { throw object.failure("a member is missing") }
    let elements = try reader.elements()
    var array: [Element] = []
    array.reserveCapacity(elements.count)
    for element in elements {
      array.append(try JSONDirectReader.value(Element.self, from: element, in: element))
    }
    self = array
  }
}

/// The scalars read from the tape, as Rewind's decoder reads them.
protocol JSONDirectScalarMember: JSONDirectMember {
  /// Reads the scalar.
  init(scalar reader: JSONDirectReader) throws
}

extension JSONDirectScalarMember {
  init(member reader: JSONDirectReader?, in object: JSONDirectReader) throws {
    guard let reader else { throw object.failure("a member is missing") }
    try self.init(scalar: reader)
  }
}

extension String: JSONDirectScalarMember {
  init(scalar reader: JSONDirectReader) throws { self = try reader.string() }
}

extension Bool: JSONDirectScalarMember {
  init(scalar reader: JSONDirectReader) throws { self = try reader.bool() }
}

extension Double: JSONDirectScalarMember {
  init(scalar reader: JSONDirectReader) throws { self = try reader.double() }
}

/// The integers of every width, read as Rewind's decoder reads them.
protocol JSONDirectIntegerMember: JSONDirectScalarMember, FixedWidthInteger {}

extension JSONDirectIntegerMember {
  init(scalar reader: JSONDirectReader) throws { self = try reader.integer(Self.self) }
}

extension Int: JSONDirectIntegerMember {}
extension Int8: JSONDirectIntegerMember {}
extension Int16: JSONDirectIntegerMember {}
extension Int32: JSONDirectIntegerMember {}
extension Int64: JSONDirectIntegerMember {}
extension UInt: JSONDirectIntegerMember {}
extension UInt8: JSONDirectIntegerMember {}
extension UInt16: JSONDirectIntegerMember {}
extension UInt32: JSONDirectIntegerMember {}
extension UInt64: JSONDirectIntegerMember {}
