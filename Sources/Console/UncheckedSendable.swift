/// A value that crosses to another task although its type is not `Sendable`, for code that uses it only
/// on the thread it belongs to (the line editor, used only on the main thread).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
