import GRDB

/// Why the inspector could not write what an exchange brought into a store it had opened: the store is
/// read-only, the disk holding it is full, or another failure. Its description is one plain line naming
/// the store, for a command to print once (`ExchangeRecorder`'s `onWriteFailure`); SQLite's own message
/// and statement go to the debug log.
public struct StoreWriteFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Cause: Sendable, Hashable {
        case readOnly
        case diskFull
        /// Another failure: SQLite's message (or the error's first line).
        case other(String)
    }

    public var path: String
    public var cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    /// The failure `error` is, for the store at `path`.
    public init(path: String, error: any Error) {
        self.path = path
        self.cause = Self.cause(of: error)
    }

    /// True when trying again a moment later cannot help: the store stays read-only, the disk stays full.
    public var isLasting: Bool { cause == .readOnly || cause == .diskFull }

    public var description: String {
        switch cause {
        case .readOnly: "the inspector store is read-only: \(path)"
        case .diskFull: "the disk holding the inspector store is full: \(path)"
        case .other(let reason): "cannot write the inspector store \(path): \(reason)"
        }
    }

    static func cause(of error: any Error) -> Cause {
        guard let error = error as? DatabaseError else {
            return .other(String(String(describing: error).prefix { $0 != "\n" }))
        }
        switch error.resultCode.primaryResultCode {
        case .SQLITE_READONLY, .SQLITE_PERM: return .readOnly
        case .SQLITE_FULL: return .diskFull
        default:
            let message = error.message ?? "SQLite error \(error.resultCode.rawValue)"
            return .other(String(message.prefix { $0 != "\n" }))
        }
    }
}
