import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ResponsesAPI

extension RecordingProxy {
    /// The most of a refused request's body the inspector keeps: enough to see what was tried, while a page
    /// that sends refused uploads in a loop cannot fill the disk with them quickly.
    static let refusedBodyBytes = 64 << 10

    /// Answers a refused request with its OpenAI-shaped error and records it: refused requests are the ones
    /// most worth seeing later (a web page that tried to use the proxy), so none is lost. The exchange is
    /// `failed` with the proxy's status (403, 400, 401, 429, 503), an error of type `proxy_error` (or
    /// `budget_exceeded`), and a message that
    /// begins "refused by the proxy: ". Nothing reaches the upstream; the URL recorded is the one the client
    /// asked of the proxy.
    func refuse(
        _ request: Request, _ refusal: ProxyGate.Refusal, start: ContinuousClock.Instant, user: String? = nil
    ) async -> Response {
        let message = "refused by the proxy: \(refusal.reason)"
        let body = ProxyFailure.body(message, code: refusal.code, type: refusal.type)
        let response = ProxyFailure.response(
            refusal.status, message, code: refusal.code, type: refusal.type, retryAfter: refusal.retryAfter)
        guard let observer else { return response }
        var headers = request.headers.map { ($0.name.rawName, $0.value) }
        if let authority = request.head.authority { headers.insert(("Host", authority), at: 0) }
        var secrets: [String] = []
        if let key = headers.first(where: { $0.0.lowercased() == "authorization" }).map({ Self.bearer($0.1) }),
            !key.isEmpty
        {
            secrets.append(key)
        }
        secrets += [configuration.token, configuration.upstreamKey].compactMap { $0 }
        secrets += configuration.users?.users.map(\.token) ?? []
        var labels = ["source": "proxy"]
        labels["client"] = ClientIdentity.describe(headers)
        labels["provider"] = configuration.provider
        let recording = await observer.exchangeWillStart(
            ExchangeRequest(
                startedAt: now(), method: request.method.rawValue, url: "http://\(gate.authority)\(request.uri.string)",
                headers: headers,
                body: await Self.refusedBody(of: request), secrets: secrets,
                context: ExchangeContext(labels: labels, user: user)))
        recording.didReceiveHead(
            ExchangeResponseHead(
                status: refusal.status, headers: [("Content-Type", "application/json")],
                timeToFirstByte: ContinuousClock.now - start))
        recording.didReceiveBody(body)
        await recording.didFinish(
            ExchangeOutcome(
                state: .failed,
                error: ResponsesAPIError(
                    code: .http, message: message, status: refusal.status, apiType: refusal.type, apiCode: refusal.code
                ),
                duration: ContinuousClock.now - start))
        return response
    }

    /// A refused request's body as the inspector keeps it: whole up to `refusedBodyBytes`, else its size.
    private static func refusedBody(of request: Request) async -> [UInt8] {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        let type = request.headers[.contentType] ?? "application/octet-stream"
        if let declared, declared > refusedBodyBytes {
            return Array("<\(declared) bytes of \(type), refused, not kept>".utf8)
        }
        var whole = request
        do {
            return Array(try await whole.collectBody(upTo: refusedBodyBytes).readableBytesView)
        } catch {
            return Array("<over \(refusedBodyBytes >> 10) KB of \(type), refused, not kept>".utf8)
        }
    }
}
