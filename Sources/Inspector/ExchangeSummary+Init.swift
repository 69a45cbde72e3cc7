import Foundation
import GRDB

// The records built by another engine than this module's SQLite (the team store on PostgreSQL): what every
// exchange has, the optional parts set afterwards.
extension ExchangeSummary {
    public init(
        id: Int64, startedAt: Date, method: String, url: String, state: String, streamed: Bool, source: String,
        eventCount: Int, attempt: Int
    ) {
        self.id = id
        self.startedAt = startedAt
        self.method = method
        self.url = url
        self.state = state
        self.streamed = streamed
        self.source = source
        self.eventCount = eventCount
        self.attempt = attempt
    }
}

extension ExchangeDetail {
    public init(
        summary: ExchangeSummary, requestHeaders: [(String, String)], requestBody: [UInt8],
        responseHeaders: [(String, String)], responseBody: [UInt8]?, events: [StoredEvent]
    ) {
        self.summary = summary
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.events = events
    }

    /// Headers as the stores keep them: a JSON array of `[name, value]` pairs (exact strings).
    public static func encode(headers: [(String, String)]) -> String { ExchangeRecorder.encode(headers: headers) }

    /// The pairs of `encode(headers:)`; none when the text is not such an array.
    public static func decode(headers text: String) -> [(String, String)] {
        InspectorStore.headers(text.databaseValue)
    }
}
