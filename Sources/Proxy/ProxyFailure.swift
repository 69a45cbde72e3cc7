import Foundation
import HTTPTypes
import Hummingbird
import ResponsesAPI

/// The proxy's own errors, shaped as the OpenAI API shapes its errors, so that a client's SDK raises them
/// with the message: `{"error": {"message": ..., "type": "proxy_error", "code": ..., "param": null}}`.
enum ProxyFailure {
    static func body(_ message: String, code: String) -> [UInt8] {
        let error: JSONValue = .object([
            "error": .object([
                "message": .string(message), "type": .string("proxy_error"), "code": .string(code), "param": .null,
            ])
        ])
        return Array(error.compactString.utf8)
    }

    static func response(_ status: Int, _ message: String, code: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body(message, code: code))))
    }
}
