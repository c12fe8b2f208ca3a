// One member of an object at a time, its writing picked by the compiler from the value's type:
// what generated conformances (rewind-codegen) call, and handy by hand. A `nil` `Optional` is
// left out, as a synthesized `encode(to:)` leaves it out (`encodeIfPresent`).

extension JSONDirectWriter {
  /// Writes the member `name` with a string.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: String) throws {
    key(name)
    string(value)
  }

  /// Writes the member `name` with an `Int`.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: Int) throws {
    key(name)
    integer(value)
  }

  /// Writes the member `name` with `true` or `false`.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: Bool) throws {
    key(name)
    bool(value)
  }

  /// Writes the member `name` with a `Double`.
  /// - Throws: ``JSONDirectWriterError`` for NaN and infinities.
  public mutating func write(_ name: StaticString, _ value: Double) throws {
    key(name)
    try number(value)
  }

  /// Writes the member `name` with an integer of any width (one wider than 64 bits through
  /// ``encode(_:)``, whose error it gets: Rewind's encoder, like Foundation's, has no `Int128`).
  /// - Throws: The error of `encode(to:)` for an integer wider than 64 bits.
  public mutating func write<T: FixedWidthInteger & Encodable>(_ name: StaticString, _ value: T)
    throws
  {
    key(name)
    if T.bitWidth > 64 {
      try encode(value)
    } else {
      integer(value)
    }
  }

  /// Writes the member `name` with a value that has a direct path of its own.
  /// - Throws: The value's error.
  public mutating func write<T: JSONDirectEncodable>(_ name: StaticString, _ value: T) throws {
    key(name)
    try value.encodeJSON(to: &self)
  }

  /// Writes the member `name` with an array of values that have a direct path of their own.
  /// - Throws: An element's error.
  public mutating func write<T: JSONDirectEncodable>(_ name: StaticString, _ value: [T]) throws {
    key(name)
    beginArray()
    for element in value { try element.encodeJSON(to: &self) }
    endArray()
  }

  /// Writes the member `name` with any `Encodable` value (``encode(_:)``).
  /// - Throws: The value's error.
  public mutating func write<T: Encodable>(_ name: StaticString, _ value: T) throws {
    key(name)
    try encode(value)
  }

  /// Writes the member `name` with a string, or nothing for `nil`.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: String?) throws {
    if let value { try write(name, value) }
  }

  /// Writes the member `name` with an `Int`, or nothing for `nil`.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: Int?) throws {
    if let value { try write(name, value) }
  }

  /// Writes the member `name` with `true` or `false`, or nothing for `nil`.
  @inlinable
  public mutating func write(_ name: StaticString, _ value: Bool?) throws {
    if let value { try write(name, value) }
  }

  /// Writes the member `name` with a value that has a direct path, or nothing for `nil`.
  /// - Throws: The value's error.
  public mutating func write<T: JSONDirectEncodable>(_ name: StaticString, _ value: T?) throws {
    if let value { try write(name, value) }
  }

  /// Writes the member `name` with any `Encodable` value, or nothing for `nil`.
  /// - Throws: The value's error.
  public mutating func write<T: Encodable>(_ name: StaticString, _ value: T?) throws {
    if let value { try write(name, value) }
  }
}
