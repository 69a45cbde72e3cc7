import Foundation

/// The Batch API: `/batches` (create, list, retrieve, cancel). A batch's input is a JSONL file uploaded with
/// purpose `batch` (`uploadFile`); its output and error files are read with `downloadFile`.
extension ResponsesClient {
    /// `POST /batches` for the requests of file `inputFileID`, all to `endpoint`, answered within `window`.
    public func createBatch(
        inputFileID: String, endpoint: String = "/v1/responses", window: String = "24h",
        metadata: [String: String] = [:], context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> BatchObject {
        var body: JSONObject = [
            "input_file_id": .string(inputFileID), "endpoint": .string(endpoint), "completion_window": .string(window),
        ]
        if !metadata.isEmpty { body["metadata"] = Self.metadataJSON(metadata) }
        return try BatchObject.checked(await json("POST", "/batches", body, context: context))
    }

    /// `GET /batches/{id}`.
    public func batch(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> BatchObject
    {
        try BatchObject.checked(await json("GET", Self.path("/batches", id), context: context))
    }

    /// `POST /batches/{id}/cancel`: the batch, `cancelling` until the requests in flight end.
    public func cancelBatch(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> BatchObject
    {
        try BatchObject.checked(await json("POST", Self.path("/batches", id, "cancel"), context: context))
    }

    /// `GET /batches`: one page, newest first.
    public func listBatches(page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> Page<JSONValue>
    {
        Page(json: try await json("GET", Self.path("/batches", query: page.query), context: context))
    }
}

/// A batch as the server describes it (`{"id": "batch_...", "object": "batch", "status": ...}`), read
/// leniently: what is missing is nil or zero, the whole object is kept.
public struct BatchObject: Sendable, Hashable {
    public var id: String
    /// `validating`, `failed`, `in_progress`, `finalizing`, `completed`, `expired`, `cancelling`, `cancelled`.
    public var status: String
    public var inputFileID: String?
    public var outputFileID: String?
    public var errorFileID: String?
    public var total: Int
    public var completed: Int
    public var failed: Int
    public var createdAt: Date?
    public var inProgressAt: Date?
    public var endedAt: Date?
    public var json: JSONValue

    /// The statuses a batch does not leave.
    public static let endStates: Set<String> = ["failed", "completed", "expired", "cancelled"]

    public var hasEnded: Bool { Self.endStates.contains(status) }

    public init(json: JSONValue) {
        self.json = json
        id = json["id"]?.stringValue ?? ""
        status = json["status"]?.stringValue ?? "unknown"
        inputFileID = json["input_file_id"]?.stringValue
        outputFileID = json["output_file_id"]?.stringValue
        errorFileID = json["error_file_id"]?.stringValue
        let counts = json["request_counts"]
        total = max(0, counts?["total"]?.intValue ?? 0)
        completed = max(0, counts?["completed"]?.intValue ?? 0)
        failed = max(0, counts?["failed"]?.intValue ?? 0)
        func date(_ key: String) -> Date? { json[key]?.doubleValue.map { Date(timeIntervalSince1970: $0) } }
        createdAt = date("created_at")
        inProgressAt = date("in_progress_at")
        endedAt = ["completed_at", "failed_at", "expired_at", "cancelled_at"].lazy.compactMap(date).first
    }

    /// The batch of a server's answer; one without an id is a decoding error.
    static func checked(_ json: JSONValue) throws(ResponsesAPIError) -> BatchObject {
        let batch = BatchObject(json: json)
        guard !batch.id.isEmpty else {
            throw ResponsesAPIError(code: .decoding, message: "the server's batch has no id")
        }
        return batch
    }

    /// The server's reasons when the batch failed validation (`errors.data[].message`, with their line).
    public var errorMessages: [String] {
        (json["errors"]?["data"]?.arrayValue ?? []).map { error in
            let message = error["message"]?.stringValue ?? error["code"]?.stringValue ?? "an error"
            return error["line"]?.intValue.map { "line \($0): \(message)" } ?? message
        }
    }
}
