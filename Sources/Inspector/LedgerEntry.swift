import Foundation
import GRDB
import ResponsesAPI

/// One object a recorded exchange left on a server: a stored response, a file, a vector store, a
/// conversation, a container or an upload, with where it lives and where it came from. The API cannot
/// list responses or conversations, so this ledger, kept beside the exchanges, is the only index of them.
public struct LedgerEntry: Sendable, Hashable, FetchableRecord, Decodable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case response, file
        case vectorStore = "vector_store"
        case conversation, container, upload
        /// A Batch API batch: it cannot be deleted, only cancelled while it runs (`deletion`).
        case batch
    }

    public var objectId: String
    public var type: String
    public var createdAt: Date
    /// When the server says it expires (stored responses: 30 days after creation).
    public var expiresAt: Date?
    /// The server's base URL (`https://api.openai.com/v1`).
    public var baseUrl: String
    public var exchangeId: Int64?
    public var provider: String?
    public var source: String?
    public var session: String?
    public var preset: String?
    /// A file's name, a store's or container's name.
    public var label: String?
    /// When a recorded exchange deleted it, or `ledger verify` found it gone.
    public var deletedAt: Date?

    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    public var kind: Kind? { Kind(rawValue: type) }

    /// The path of the object on its server, from the base URL (`/files/file-abc`). The id, a server's word, is one
    /// segment whatever it holds: `/`, `?`, `#`, `;` and `.` percent-encoded, so `x/../../vector_stores/vs_1` or
    /// `file-1?x` cannot name another object.
    public var path: String {
        let id = Self.segment(objectId)
        return switch kind {
        case .response: "/responses/\(id)"
        case .file: "/files/\(id)"
        case .vectorStore: "/vector_stores/\(id)"
        case .conversation: "/conversations/\(id)"
        case .container: "/containers/\(id)"
        case .batch: "/batches/\(id)"
        case .upload, nil: "/uploads/\(id)"
        }
    }

    static let segmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/.;"))

    /// `text` as one path segment.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? ""
    }

    /// The request that deletes the object: `DELETE` of its path, but for a batch (which the API cannot
    /// delete) `POST /batches/ID/cancel`, which stops one that still runs; its files are entries of their own.
    public var deletion: (method: String, path: String) {
        kind == .batch ? ("POST", path + "/cancel") : ("DELETE", path)
    }

    public var json: JSONValue {
        var object = JSONObject()
        object["id"] = .string(objectId)
        object["type"] = .string(type)
        object["created_at"] = .string(InspectorStore.timestamp(createdAt))
        object["expires_at"] = expiresAt.map { .string(InspectorStore.timestamp($0)) } ?? .null
        object["base_url"] = .string(baseUrl)
        object["exchange_id"] = exchangeId.map { .integer(Int($0)) } ?? .null
        object["provider"] = provider.map(JSONValue.string) ?? .null
        object["source"] = source.map(JSONValue.string) ?? .null
        object["session"] = session.map(JSONValue.string) ?? .null
        object["preset"] = preset.map(JSONValue.string) ?? .null
        object["label"] = label.map(JSONValue.string) ?? .null
        object["deleted_at"] = deletedAt.map { .string(InspectorStore.timestamp($0)) } ?? .null
        return .object(object)
    }
}
