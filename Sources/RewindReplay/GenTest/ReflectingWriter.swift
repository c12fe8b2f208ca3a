/// Writes `String(reflecting:)` of a value to a stream a piece at a time, the same text to the
/// byte, so that a large state's Swift literal is never held whole: `debugPrint` of a struct
/// builds each array member's text as one `String` (`Array.debugDescription`), 60 MB for
/// 300,000 todos.
///
/// Arrays and structs whose text the standard library derives from their elements and members
/// (no description or stream conformance of their own) are written element by element and
/// member by member, in `debugPrint`'s format; every other value (optionals, enums,
/// dictionaries, tuples, classes, strings, numbers, anything with a description) through
/// `debugPrint` itself.
package enum ReflectingWriter {
  /// Writes `String(reflecting: value)` to `target`.
  package static func write<Target: TextOutputStream>(_ value: Any, to target: inout Target) {
    // The type itself, not a cast of the value: a cast from `Any` looks through an `Optional`
    // or an `AnyHashable` to the array inside, which `debugPrint` writes with its wrapper.
    if type(of: value) is any ReflectedArray.Type, let array = value as? any ReflectedArray {
      target.write("[")
      var first = true
      array.forEachReflectedElement { element in
        if first { first = false } else { target.write(", ") }
        write(element, to: &target)
      }
      target.write("]")
      return
    }
    if value is any CustomDebugStringConvertible || value is any CustomStringConvertible
      || value is any TextOutputStreamable
    {
      debugPrint(value, terminator: "", to: &target)
      return
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct else {
      debugPrint(value, terminator: "", to: &target)
      return
    }
    // As `debugPrint` writes a struct: its qualified name, then each labelled member.
    target.write(_typeName(mirror.subjectType, qualified: true))
    target.write("(")
    var first = true
    for case (let label?, let member) in mirror.children {
      if first { first = false } else { target.write(", ") }
      target.write(label)
      target.write(": ")
      write(member, to: &target)
    }
    target.write(")")
  }
}

/// Any `Array`, its elements as `Any`.
private protocol ReflectedArray {
  func forEachReflectedElement(_ body: (Any) -> Void)
}

extension Array: ReflectedArray {
  fileprivate func forEachReflectedElement(_ body: (Any) -> Void) {
    for element in self { body(element) }
  }
}
