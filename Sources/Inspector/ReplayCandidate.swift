import Foundation
import GRDB
import ResponsesAPI

/// A stored `/responses` exchange that can be replayed against another model or provider: its request, and
/// what it cost and returned the first time.
public struct ReplayCandidate: Sendable, Hashable {
    public var id: Int64
    public var startedAt: Date
    public var url: String
    public var body: [UInt8]
    public var provider: String?
    public var preset: String?
    public var model: String?
    /// The answer's text as recorded (`output_text`).
    public var answer: String
    public var inputTokens: Int?
    public var outputTokens: Int?
    public var costUSD: Double?
    public var durationMs: Double?
}

extension InspectorStore {
    /// The exchanges `inspect replay --against` replays: the ones named (any state, in the order given; an
    /// id that is not a `/responses` request is an error naming it), else up to `sample` completed
    /// `/responses` requests started since `since` that are not replays themselves, spread evenly over the
    /// window (oldest first), so a sample of a busy week is not just its last hour.
    public func replayCandidates(ids: [Int64], since: Date, sample: Int) async throws -> [ReplayCandidate] {
        try await writer.read { db in
            let columns = """
                id, started_at, url, \(Self.requestBodyColumn), provider, preset, model, output_text, input_tokens,
                output_tokens, cost_usd, duration_ms
                """
            func candidate(_ row: Row) -> ReplayCandidate {
                ReplayCandidate(
                    id: row["id"], startedAt: row["started_at"], url: row["url"],
                    body: Self.bytes(row["request_body"]) ?? [], provider: row["provider"], preset: row["preset"],
                    model: row["model"], answer: ReplayComparison.capped(row["output_text"] ?? ""),
                    inputTokens: TokenCount.clamped(row["input_tokens"]),
                    outputTokens: TokenCount.clamped(row["output_tokens"]), costUSD: row["cost_usd"],
                    durationMs: row["duration_ms"])
            }
            let responses = "method = 'POST' AND (url LIKE '%/responses' OR url LIKE '%/responses?%')"
            if !ids.isEmpty {
                var seen = Set<Int64>()
                return try ids.filter { seen.insert($0).inserted }.map { id in
                    guard
                        let row = try Row.fetchOne(
                            db, sql: "SELECT \(columns) FROM exchange WHERE id = ? AND \(responses)", arguments: [id])
                    else { throw ReplayCandidateError(id: id) }
                    return candidate(row)
                }
            }
            let all = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM exchange
                    WHERE started_at >= ? AND state = 'completed' AND replay_of IS NULL AND \(responses)
                    ORDER BY started_at, id
                    """,
                arguments: [StorageDate.string(since)])
            let chosen = Self.spread(all, count: sample)
            return try chosen.compactMap { id in
                try Row.fetchOne(db, sql: "SELECT \(columns) FROM exchange WHERE id = ?", arguments: [id]).map(
                    candidate)
            }
        }
    }

    /// `count` of `values`, evenly spaced from the first to the last (all of them when there are no more).
    static func spread<T>(_ values: [T], count: Int) -> [T] {
        guard count > 0, values.count > count else { return count > 0 ? values : [] }
        if count == 1 { return [values[values.count - 1]] }
        return (0..<count).map { values[$0 * (values.count - 1) / (count - 1)] }
    }
}

/// An id given to `inspect replay --against` that is not a stored `/responses` request.
public struct ReplayCandidateError: Error, Sendable, CustomStringConvertible {
    public var id: Int64
    public var description: String { "exchange \(id) is not a recorded POST /responses request" }
}
