/// The `status` of a response. Any string the server sends is kept; the known ones have names.
public struct ResponseStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let completed = ResponseStatus(rawValue: "completed")
    public static let failed = ResponseStatus(rawValue: "failed")
    public static let inProgress = ResponseStatus(rawValue: "in_progress")
    public static let cancelled = ResponseStatus(rawValue: "cancelled")
    public static let queued = ResponseStatus(rawValue: "queued")
    public static let incomplete = ResponseStatus(rawValue: "incomplete")

    public var description: String { rawValue }
}
