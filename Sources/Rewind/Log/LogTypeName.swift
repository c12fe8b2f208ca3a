/// The name a log gives a Swift type: the header's `actionType` and `stateType`, which `replay`
/// compares with the types an app registers, and a catalog action's `type`.
package enum LogTypeName {
  /// The type's name as `String(describing:)` prints a type: without its module, generic
  /// arguments included (`TodoAction`, `Inner` for `Outer.Inner`, `Page<Item>`).
  ///
  /// Read straight from the runtime: `String(describing:)` first asks whether the metatype
  /// conforms to three printing protocols (it never does), and each first question about a type
  /// scans every conformance record of every loaded library — about 1 ms a type at the start of
  /// a `replay` process, which registers every app it knows.
  package static func of(_ type: Any.Type) -> String {
    _typeName(type, qualified: false)
  }
}
