import Foundation
import ResponsesAPI
import Synchronization

/// A loopback Batch API: `/v1/files` (multipart upload, content, delete) and `/v1/batches` (create, list,
/// retrieve, cancel), with a batch's life played one step per `GET /batches/ID`: `validating`, then
/// `in_progress` for `progressSteps` asks (its counts rising), then `completed`, its output file made by
/// answering each request with `echo: <its input>` (1,000 input and 500 output tokens). A request whose input
/// holds `FAIL` is answered with an HTTP 400 in the error file; a batch whose input holds `EXPIRE` ends
/// `expired` with only its first half answered (the rest in the error file as not run); a cancelled one ends
/// `cancelled` at the next ask with its first half answered (the rest in no file).
public final class BatchServer: Sendable {
    struct Batch {
        var object: JSONObject
        var lines: [JSONValue]
        var asked = 0
        var cancelling = false
    }

    struct State {
        var files: [String: [UInt8]] = [:]
        var batches: [String: Batch] = [:]
        var order: [String] = []
        var next = 0
    }

    let state = Mutex(State())
    public let progressSteps: Int
    public let model: String
    /// What the batches' ids begin with (a hostile server's `../../x` for the tests of names never paths).
    public let idPrefix: String
    /// A hostile server's output file: its first result written twice.
    public let repeatsFirstResult: Bool
    /// With `holds`, a batch stays `in_progress` past its steps until `release()`: a test acts while it runs,
    /// however slowly the machine goes.
    public let holds: Bool
    let released = Mutex(false)

    /// Lets held batches end.
    public func release() { released.withLock { $0 = true } }

    public init(
        progressSteps: Int = 2, model: String = "gpt-4.1-mini", idPrefix: String = "batch_",
        repeatsFirstResult: Bool = false, holds: Bool = false
    ) {
        self.holds = holds
        self.progressSteps = progressSteps
        self.model = model
        self.idPrefix = idPrefix
        self.repeatsFirstResult = repeatsFirstResult
    }

    /// The bytes of file `id` as uploaded or made.
    public func file(_ id: String) -> [UInt8]? { state.withLock { $0.files[id] } }

    /// Every file id the server holds.
    public var fileIDs: [String] { state.withLock { $0.files.keys.sorted() } }

    public var route: LoopbackServer.Route {
        { [self] request in answer(request) }
    }

    func answer(_ request: ReceivedRequest) -> Reply {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.first == "v1" else { return .json(#"{"error":{"message":"not found"}}"#, status: 404) }
        let rest = Array(parts.dropFirst())
        let id = rest.count > 1 ? (rest[1].removingPercentEncoding ?? rest[1]) : ""
        switch (request.method, rest.count, rest.first ?? "", rest.last ?? "") {
        case ("POST", 1, "files", _):
            guard let content = Self.fileContent(request) else {
                return .json(#"{"error":{"message":"no file in the form"}}"#, status: 400)
            }
            let made = state.withLock { state -> String in
                state.next += 1
                let id = "file-\(state.next)"
                state.files[id] = content
                return id
            }
            return .json(
                JSONValue.object([
                    "id": .string(made), "object": "file", "bytes": .integer(content.count), "filename": "input.jsonl",
                    "purpose": "batch",
                ]).compactString)
        case ("GET", 3, "files", "content"):
            guard let bytes = file(id) else { return .json(#"{"error":{"message":"no such file"}}"#, status: 404) }
            return Reply(status: 200, headers: [("content-type", "application/jsonl")], parts: [.bytes(bytes)])
        case ("DELETE", 2, "files", _):
            let existed = state.withLock { $0.files.removeValue(forKey: id) != nil }
            return existed
                ? .json(#"{"id":"\#(id)","object":"file","deleted":true}"#)
                : .json(#"{"error":{"message":"no such file"}}"#, status: 404)
        case ("POST", 1, "batches", _):
            return create(request)
        case ("GET", 1, "batches", _):
            let data = state.withLock { state in state.order.reversed().compactMap { state.batches[$0]?.object } }
            return .json(
                JSONValue.object(["object": "list", "data": .array(data.map(JSONValue.object)), "has_more": false])
                    .compactString)
        case ("GET", 2, "batches", _):
            return state.withLock { state in
                guard var batch = state.batches[id] else {
                    return .json(#"{"error":{"message":"no such batch"}}"#, status: 404)
                }
                advance(&batch, files: &state)
                state.batches[id] = batch
                return .json(JSONValue.object(batch.object).compactString)
            }
        case ("POST", 3, "batches", "cancel"):
            return state.withLock { state in
                guard var batch = state.batches[id] else {
                    return .json(#"{"error":{"message":"no such batch"}}"#, status: 404)
                }
                let status = batch.object["status"]?.stringValue ?? ""
                guard !BatchObject.endStates.contains(status) else {
                    return .json(
                        #"{"error":{"message":"Cannot cancel a batch with status '\#(status)'."}}"#, status: 400)
                }
                batch.cancelling = true
                batch.object["status"] = "cancelling"
                state.batches[id] = batch
                return .json(JSONValue.object(batch.object).compactString)
            }
        default:
            return .json(#"{"error":{"message":"not found"}}"#, status: 404)
        }
    }

    private func create(_ request: ReceivedRequest) -> Reply {
        let body = (try? JSONValue.parse(request.body)) ?? .null
        guard let fileID = body["input_file_id"]?.stringValue, body["endpoint"]?.stringValue == "/v1/responses"
        else {
            return .json(#"{"error":{"message":"input_file_id and endpoint /v1/responses are required"}}"#, status: 400)
        }
        return state.withLock { state in
            guard let content = state.files[fileID] else {
                return .json(#"{"error":{"message":"no such file"}}"#, status: 400)
            }
            let lines = content.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONValue.parse(Array($0)) }
            state.next += 1
            let id = "\(idPrefix)\(state.next)"
            var object: JSONObject = [
                "id": .string(id), "object": "batch", "endpoint": "/v1/responses", "input_file_id": .string(fileID),
                "completion_window": "24h", "status": "validating", "created_at": 1_764_400_000,
                "expires_at": 1_764_486_400,
                "request_counts": ["total": .integer(lines.count), "completed": 0, "failed": 0],
            ]
            if let metadata = body["metadata"] { object["metadata"] = metadata }
            state.batches[id] = Batch(object: object, lines: lines)
            state.order.append(id)
            return .json(JSONValue.object(object).compactString)
        }
    }
}
