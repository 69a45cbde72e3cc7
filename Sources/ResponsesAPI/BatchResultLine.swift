/// One line of a batch's output or error file: the request's `custom_id`, and either the server's answer to it
/// (`response: {status_code, request_id, body}`) or why there is none (`error: {code, message}`). Read
/// leniently; the answer's body is kept as the bytes the server wrote.
public struct BatchResultLine: Sendable {
    public var customID: String
    public var statusCode: Int?
    public var requestID: String?
    /// The answer's body, serialized again from the line (the line's own bytes are kept by the file).
    public var body: [UInt8]
    public var response: JSONValue?
    /// Why the request has no answer, or the answer's error message.
    public var errorMessage: String?

    /// The line parsed; nil when it is not a JSON object with a `custom_id`.
    public init?(_ bytes: ArraySlice<UInt8>) {
        guard let json = try? JSONValue.parse(Array(bytes)), let id = json["custom_id"]?.stringValue else {
            return nil
        }
        customID = id
        let answer = json["response"]
        statusCode = answer?["status_code"]?.intValue
        requestID = answer?["request_id"]?.stringValue
        response = answer?["body"]
        body = response.map { $0.serialized() } ?? []
        var lineError = json["error"]
        if case .null? = lineError { lineError = nil }
        errorMessage =
            lineError.map { $0["message"]?.stringValue ?? $0.compactString }
            ?? response?["error"]?["message"]?.stringValue
            ?? statusCode.flatMap { $0 >= 400 ? "HTTP \($0)" : nil }
    }

    /// Whether the request was answered with a response that did not fail.
    public var succeeded: Bool {
        guard let statusCode, (200..<300).contains(statusCode), errorMessage == nil else { return false }
        return response?["status"]?.stringValue != "failed"
    }

    /// The state the inspector records.
    public var state: ExchangeOutcome.State {
        if !succeeded { return .failed }
        return response?["status"]?.stringValue == "incomplete" ? .incomplete : .completed
    }

    /// The outcome the inspector records (no timings: the Batch API does not give one request's).
    public var outcome: ExchangeOutcome {
        let error =
            succeeded
            ? nil
            : ResponsesAPIError(
                code: .http, message: errorMessage ?? "the request failed", status: statusCode, requestID: requestID)
        return ExchangeOutcome(
            state: state, error: error, responseID: response?["id"]?.stringValue,
            model: response?["model"]?.stringValue, responseStatus: response?["status"]?.stringValue,
            usage: Usage(json: response?["usage"]), duration: .zero)
    }
}
