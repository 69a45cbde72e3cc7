import Foundation

/// What the `inspect` commands read, from either engine: the local SQLite store (`InspectorStore`) or a
/// team's PostgreSQL (`TeamStore`, Docs/team.md). Both give the same records; ids are the engine's own.
public protocol InspectorReading: Sendable {
    /// Where the exchanges are, for messages: a file's path, or a database's address without its password.
    var location: String { get }
    /// The exchanges `query` selects, newest first.
    func exchanges(matching query: ExchangeQuery) async throws -> [ExchangeSummary]
    /// One exchange with everything stored about it; nil when there is no such id.
    func exchange(id: Int64) async throws -> ExchangeDetail?
    /// The exchanges after `id` and the current rows of `ids` (those seen in progress), oldest first.
    func exchanges(after id: Int64, among ids: [Int64]) async throws -> [ExchangeSummary]
    /// Per group, requests, tokens, cost, latency percentiles and the failed share.
    func stats(by grouping: ExchangeStats.Grouping, since: Date?) async throws -> ExchangeStats
    /// Every exchange started at or after `since` (all when nil), oldest first, one at a time.
    func forEachExchange(since: Date?, _ body: (ExchangeDetail) throws -> Void) async throws
    /// Deletes the exchanges started before `date`; returns how many.
    func prune(before date: Date) async throws -> Int
    /// The tool calls the console ran for each of `responseIDs` (none where the engine does not keep them).
    func toolCalls(forResponses responseIDs: [String]) async throws -> [String: [ToolCallEntry]]
    /// A signal each time new exchanges may be there, with the ids added (nil: poll); the first, empty, once
    /// the engine listens. An id may be below ids already read: a team store's pushes commit in their own order,
    /// not their ids'.
    func changes() -> AsyncStream<[Int64]>?
}

extension InspectorStore: InspectorReading {
    public var location: String { path }
}

extension InspectorReading {
    /// A signal each time new exchanges may be there, for `inspect watch`; nil where the engine has none (the
    /// SQLite store: watch polls it).
    public func changes() -> AsyncStream<[Int64]>? { nil }
}
