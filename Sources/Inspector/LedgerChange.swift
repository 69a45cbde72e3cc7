import Foundation
import ResponsesAPI

/// What one finished exchange changes in the ledger: an object created (a `POST` to a creating endpoint that
/// succeeded; a response once the server gave it an id, unless the request said `store: false`, whatever
/// happened to the stream after: cancelled, detached or failed, it is on the server) or deleted (a successful
/// `DELETE` of one). Read from the request and the answer alone, so the proxy's exchanges count as the
/// console's do.
enum LedgerChange: Sendable, Hashable {
    case created(id: String, kind: LedgerEntry.Kind, label: String?, expiresAt: Date?, baseURL: String)
    case deleted(id: String)

    /// Stored responses are kept this long unless deleted (the API's documented default).
    static let responseRetention: TimeInterval = 30 * 24 * 3600

    static func of(
        method: String, url: String, storeRequested: Bool, responseBody: [UInt8]?, outcome: ExchangeOutcome, now: Date
    ) -> LedgerChange? {
        let address = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        guard let range = address.range(of: "/v1/", options: .backwards) else { return nil }
        // A response has an id once the server created it; anything else only when the request succeeded.
        let succeeded = outcome.state == .completed || outcome.state == .incomplete
        guard succeeded || (outcome.responseID != nil && address.hasSuffix("/v1/responses")) else { return nil }
        let baseURL = String(address[..<range.lowerBound]) + "/v1"
        let rest = address[range.upperBound...].split(separator: "/").map(String.init)
        switch (method.uppercased(), rest.count) {
        case ("POST", 1):
            return created(
                collection: rest[0], storeRequested: storeRequested, responseBody: responseBody, outcome: outcome,
                now: now, baseURL: baseURL)
        case ("DELETE", 2)
        where ["responses", "files", "vector_stores", "conversations", "containers"].contains(rest[0]):
            return .deleted(id: rest[1])
        default:
            return nil
        }
    }

    private static func created(
        collection: String, storeRequested: Bool, responseBody: [UInt8]?, outcome: ExchangeOutcome, now: Date,
        baseURL: String
    ) -> LedgerChange? {
        let kind: LedgerEntry.Kind
        switch collection {
        case "responses":
            // Stored unless the request said store: false; a streamed one's id comes from its events.
            guard storeRequested, let id = outcome.responseID else { return nil }
            return .created(
                id: id, kind: .response, label: nil, expiresAt: now.addingTimeInterval(responseRetention),
                baseURL: baseURL)
        case "files": kind = .file
        case "vector_stores": kind = .vectorStore
        case "conversations": kind = .conversation
        case "containers": kind = .container
        case "uploads": kind = .upload
        case "batches": kind = .batch
        default: return nil
        }
        guard let body = responseBody, let json = try? JSONValue.parse(body), let id = json["id"]?.stringValue,
            !id.isEmpty
        else { return nil }
        let expires = json["expires_at"]?.doubleValue.map { Date(timeIntervalSince1970: $0) }
        return .created(
            id: id, kind: kind,
            label: json["filename"]?.stringValue ?? json["name"]?.stringValue ?? json["input_file_id"]?.stringValue,
            expiresAt: expires,
            baseURL: baseURL)
    }
}
