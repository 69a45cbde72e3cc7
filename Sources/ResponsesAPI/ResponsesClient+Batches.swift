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
    /// The statuses of a batch still at work; any other (one of `endStates`, or one this console does not know)
    /// is an end, so that a wait never outlasts a status it cannot read.
    public static let workingStates: Set<String> = ["validating", "in_progress", "finalizing", "cancelling"]

    public var hasEnded: Bool { !Self.workingStates.contains(status) }

    /// A count from the server, within 0...2⁴⁰ (sums of them cannot overflow).
    static func count(_ value: JSONValue?) -> Int { min(max(0, value?.intValue ?? 0), 1 << 40) }

    /// A time from the server, within 1970...9999 (a date every formatter can write).
    static func date(_ value: JSONValue?) -> Date? {
        value?.doubleValue.map { Date(timeIntervalSince1970: min(max(0, $0), 253_402_300_799)) }
    }

    public init(json: JSONValue) {
        self.json = json
        id = json["id"]?.stringValue ?? ""
        status = json["status"]?.stringValue ?? "unknown"
        inputFileID = json["input_file_id"]?.stringValue
        outputFileID = json["output_file_id"]?.stringValue
        errorFileID = json["error_file_id"]?.stringValue
        let counts = json["request_counts"]
        total = Self.count(counts?["total"])
        completed = Self.count(counts?["completed"])
        failed = Self.count(counts?["failed"])
        createdAt = Self.date(json["created_at"])
        inProgressAt = Self.date(json["in_progress_at"])
        endedAt =
            ["completed_at", "failed_at", "expired_at", "cancelled_at"].lazy.compactMap { Self.date(json[$0]) }
            .first
    }

    /// The batch of a server's answer; one without an id is a decoding error.
    static func checked(_ json: JSONValue) throws(ResponsesAPIError) -> BatchObject {
        let batch = BatchObject(json: json)
        guard !batch.id.isEmpty else {
            throw ResponsesAPIError(code: .decoding, message: "the server's batch has no id")
        }
        return batch
    }

    /// The server's reasons when the batch failed validation (`errors.data[].message`, with their line): the
    /// first 20.
    public var errorMessages: [String] {
        (json["errors"]?["data"]?.arrayValue ?? []).prefix(20).map { error in
            let message = error["message"]?.stringValue ?? error["code"]?.stringValue ?? "an error"
            return error["line"]?.intValue.map { "line \($0): \(message)" } ?? message
        }
    }
}
