import Foundation
import GRDB
import Untrusted

/// Which exchanges `inspect list` shows: every filter is optional, and they combine with AND.
public struct ExchangeQuery: Sendable, Hashable {
    public var since: Date?
    public var before: Date?
    public var model: String?
    /// An exchange state (`completed`, `failed`, `cancelled`, `incomplete`, `interrupted`, `in_progress`)
    /// or an HTTP status (`429`).
    public var status: String?
    public var preset: String?
    /// The named provider (`default` for the environment's server).
    public var provider: String?
    /// `console` or `proxy`.
    public var source: String?
    /// Part of the client's description (its User-Agent and SDK headers), case-insensitive.
    public var client: String?
    /// Words that must all occur in the input, the output or the event texts (full-text search).
    public var search: String?
    /// The response the exchanges carry: the request that created it, its resumed streams, retrievals.
    public var responseID: String?
    /// The `openresponses eval` run the exchanges were made for.
    public var evalRun: String?
    /// The Batch API batch whose results the exchanges are.
    public var batchID: String?
    /// The user of a proxy shared by a team (`proxy --tokens-file`) whose token sent the exchanges.
    public var user: String?
    public var limit: Int

    public init(
        since: Date? = nil, before: Date? = nil, model: String? = nil, status: String? = nil, preset: String? = nil,
        search: String? = nil, limit: Int = 50, provider: String? = nil, source: String? = nil, client: String? = nil,
        responseID: String? = nil
    ) {
        self.responseID = responseID
        self.provider = provider
        self.source = source
        self.client = client
        self.since = since
        self.before = before
        self.model = model
        self.status = status
        self.preset = preset
        self.search = search
        self.limit = limit
    }

    /// The WHERE clause and its arguments.
    var filter: (sql: String, arguments: StatementArguments) {
        var clauses: [String] = []
        var arguments = StatementArguments()
        if let since {
            clauses.append("started_at >= ?")
            _ = arguments.append(contentsOf: [StorageDate.string(since)])
        }
        if let before {
            clauses.append("started_at < ?")
            _ = arguments.append(contentsOf: [StorageDate.string(before)])
        }
        if let model {
            clauses.append("(model = ? OR model LIKE ? ESCAPE '\\')")
            _ = arguments.append(contentsOf: [model, Self.likePrefix(model) + "-%"])
        }
        if let status {
            if let code = Int(status) {
                clauses.append("status = ?")
                _ = arguments.append(contentsOf: [code])
            } else {
                clauses.append("state = ?")
                _ = arguments.append(contentsOf: [status])
            }
        }
        if let preset {
            clauses.append("preset = ?")
            _ = arguments.append(contentsOf: [preset])
        }
        if let provider {
            clauses.append("provider = ?")
            _ = arguments.append(contentsOf: [provider])
        }
        if let source {
            clauses.append("source = ?")
            _ = arguments.append(contentsOf: [source])
        }
        if let client {
            clauses.append("client LIKE ? ESCAPE '\\'")
            _ = arguments.append(contentsOf: ["%" + Self.likePrefix(client) + "%"])
        }
        if let evalRun {
            clauses.append("eval_run = ?")
            _ = arguments.append(contentsOf: [evalRun])
        }
        if let batchID {
            clauses.append("batch_id = ?")
            _ = arguments.append(contentsOf: [batchID])
        }
        if let user {
            clauses.append("user = ?")
            _ = arguments.append(contentsOf: [user])
        }
        if let responseID {
            clauses.append("response_id = ?")
            _ = arguments.append(contentsOf: [responseID])
        }
        if let search, let match = Self.ftsQuery(search) {
            clauses.append("id IN (SELECT rowid FROM exchange_fts WHERE exchange_fts MATCH ?)")
            _ = arguments.append(contentsOf: [match])
        }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), arguments)
    }

    /// Each word as a quoted FTS5 phrase (so punctuation in the user's text is never query syntax); all
    /// must match. Nil when there is no word.
    static func ftsQuery(_ text: String) -> String? {
        // Split and quoted by Unicode scalar: a `"` followed by a combining mark is one `Character` that is not
        // `"`, and quote doubling by `Character` left it single ("unterminated string").
        let words = text.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }).map {
            FTS5Quoting.phrase(String($0))
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    static func likePrefix(_ text: String) -> String {
        LikePattern.literal(text)
    }
}
