/// Why a store could not be opened, with its path: a passing reason (another process holds a lock for
/// longer than the opening waits) or a lasting one.
public struct StoreOpenError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    /// True when trying again later may work (busy, locked).
    public var isPassing: Bool

    public init(path: String, reason: String, isPassing: Bool = false) {
        self.path = path
        self.reason = reason
        self.isPassing = isPassing
    }

    public var description: String { "cannot open \(path): \(reason)" }
}
