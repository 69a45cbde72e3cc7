import Foundation
import HTTPTypes
import Hummingbird
import ResponsesAPI

/// The proxy's own errors, shaped as the OpenAI API shapes its errors, so that a client's SDK raises them
/// with the message: `{"error": {"message": ..., "type": "proxy_error", "code": ..., "param": null}}` (a
/// budget's refusal has the type `budget_exceeded`).
enum ProxyFailure {
    static func body(_ message: String, code: String, type: String = "proxy_error") -> [UInt8] {
        let error: JSONValue = .object([
            "error": .object([
                "message": .string(message), "type": .string(type), "code": .string(code), "param": .null,
            ])
        ])
        return Array(error.compactString.utf8)
    }

    static func response(
        _ status: Int, _ message: String, code: String, type: String = "proxy_error", retryAfter: Int? = nil
    ) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let retryAfter {
            headers[.retryAfter] = String(retryAfter)
            headers[shouldRetry] = "false"
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body(message, code: code, type: type))))
    }

    /// What the official SDKs read before retrying a 429 or a 5xx: `false` stops them.
    static let shouldRetry = HTTPField.Name("x-should-retry")!
}
