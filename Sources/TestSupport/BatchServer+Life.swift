import Foundation
import ResponsesAPI

extension BatchServer {
    /// One step of a batch's life, taken when it is asked about.
    func advance(_ batch: inout Batch, files: inout State) {
        batch.asked += 1
        let status = batch.object["status"]?.stringValue ?? ""
        guard !BatchObject.endStates.contains(status) else { return }
        let total = batch.lines.count
        let expires = batch.lines.contains { $0.compactString.contains("EXPIRE") }
        if batch.cancelling {
            finish(&batch, status: "cancelled", answered: total / 2, files: &files)
            return
        }
        if batch.asked == 1 {
            batch.object["status"] = "validating"
            return
        }
        let step = batch.asked - 1
        if step <= progressSteps || (holds && !released.withLock({ $0 })) {
            batch.object["status"] = "in_progress"
            if batch.object["in_progress_at"] == nil {
                batch.object["in_progress_at"] = .integer(Int(Date().timeIntervalSince1970))
            }
            let done = total * min(step, progressSteps) / (progressSteps + 1)
            let failed = batch.lines.prefix(done).filter(Self.fails).count
            batch.object["request_counts"] = [
                "total": .integer(total), "completed": .integer(done - failed), "failed": .integer(failed),
            ]
            return
        }
        finish(&batch, status: expires ? "expired" : "completed", answered: expires ? total / 2 : total, files: &files)
    }

    static func fails(_ line: JSONValue) -> Bool { line["body"]?["input"]?.compactString.contains("FAIL") ?? false }

    /// Ends the batch with its first `answered` requests answered: their output and error files made.
    private func finish(_ batch: inout Batch, status: String, answered: Int, files: inout State) {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var failed = 0
        for (index, line) in batch.lines.prefix(answered).enumerated() {
            let id = line["custom_id"] ?? .null
            if Self.fails(line) {
                failed += 1
                let error: JSONValue = [
                    "id": .string("batch_req_\(index)"), "custom_id": id,
                    "response": [
                        "status_code": 400, "request_id": .string("req_\(index)"),
                        "body": [
                            "error": ["message": "Invalid input: FAIL is not allowed", "type": "invalid_request_error"]
                        ],
                    ],
                    "error": .null,
                ]
                errors += error.serialized() + [UInt8(ascii: "\n")]
                continue
            }
            let written = answer(index: index, line: line).serialized() + [UInt8(ascii: "\n")]
            output += written
            if repeatsFirstResult, index == 0 { output += written }
        }
        // Requests an expired batch never ran: in the error file as the Batch API writes them (a cancelled
        // batch's are in neither file).
        if status == "expired" {
            for line in batch.lines.dropFirst(answered) {
                let error: JSONValue = [
                    "custom_id": line["custom_id"] ?? .null, "response": .null,
                    "error": [
                        "code": .string("batch_\(status)"),
                        "message": .string("This request was not run: the batch \(status)."),
                    ],
                ]
                errors += error.serialized() + [UInt8(ascii: "\n")]
            }
        }
        files.next += 1
        let outputID = "file-\(files.next)"
        files.files[outputID] = output
        batch.object["output_file_id"] = .string(outputID)
        if !errors.isEmpty {
            files.next += 1
            let errorID = "file-\(files.next)"
            files.files[errorID] = errors
            batch.object["error_file_id"] = .string(errorID)
        }
        batch.object["status"] = .string(status)
        batch.object["\(status == "cancelled" ? "cancelled" : status == "expired" ? "expired" : "completed")_at"] =
            1_764_400_100
        batch.object["request_counts"] = [
            "total": .integer(batch.lines.count), "completed": .integer(answered - failed), "failed": .integer(failed),
        ]
    }

    /// The output line of a request answered: `echo: <its input>`, with 1,000 input and 500 output tokens.
    private func answer(index: Int, line: JSONValue) -> JSONValue {
        let input = line["body"]?["input"]
        let text = "echo: " + (input?.stringValue ?? input?.compactString ?? "")
        let model = line["body"]?["model"]?.stringValue ?? self.model
        let body: JSONValue = [
            "id": .string("resp_b\(index)"), "object": "response", "status": "completed", "model": .string(model),
            "output": [
                [
                    "type": "message", "id": .string("msg_b\(index)"), "role": "assistant", "status": "completed",
                    "content": [["type": "output_text", "text": .string(text), "annotations": []]],
                ]
            ],
            "usage": [
                "input_tokens": 1000, "input_tokens_details": ["cached_tokens": 0], "output_tokens": 500,
                "output_tokens_details": ["reasoning_tokens": 0], "total_tokens": 1500,
            ],
        ]
        return [
            "id": .string("batch_req_\(index)"), "custom_id": line["custom_id"] ?? .null,
            "response": ["status_code": 200, "request_id": .string("req_\(index)"), "body": body], "error": .null,
        ]
    }

    /// The `file` part of a multipart form (the bytes between its headers and the next boundary).
    static func fileContent(_ request: ReceivedRequest) -> [UInt8]? {
        guard let type = request.header("content-type"), let range = type.range(of: "boundary=") else { return nil }
        let boundary = Array(
            ("--" + type[range.upperBound...].trimmingCharacters(in: .init(charactersIn: "\" ")))
                .utf8)
        let body = request.body
        let marker = Array("name=\"file\"".utf8)
        guard let named = body.firstRange(of: marker),
            let headersEnd = body[named.upperBound...].firstRange(of: Array("\r\n\r\n".utf8)),
            let end = body[headersEnd.upperBound...].firstRange(of: Array("\r\n".utf8) + boundary)
        else { return nil }
        return Array(body[headersEnd.upperBound..<end.lowerBound])
    }
}
