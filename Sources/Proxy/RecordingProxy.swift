import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ResponsesAPI

/// The proxy's one responder: every `/v1/...` request, whatever its method, is forwarded to the upstream
/// byte for byte and recorded through the `ExchangeObserver` as the console records its own requests
/// (exact request bytes, the head, each server-sent event as it arrives, the body, the outcome).
/// Bodies are streamed both ways with backpressure: a slow client slows the upstream read.
public struct RecordingProxy: HTTPResponder {
    public typealias Context = BasicRequestContext

    let configuration: ProxyConfiguration
    let client: HTTPClient
    let observer: (any ExchangeObserver)?
    let now: @Sendable () -> Date
    let logger: Logger
    /// Recordings still catching up with streams already forwarded; the server waits for them before it stops.
    let recordings: RecordingTasks
    /// Which requests may come in at all (`Host`, `Origin`).
    let gate: ProxyGate
    /// What each user with a budget has spent today; nil when no user has a budget.
    let spending: SpendCache?

    /// Headers that belong to one connection, never forwarded. `accept-encoding` is dropped too: the
    /// upstream answers uncompressed so the proxy can read the events it records.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authorization", "transfer-encoding", "te", "trailer",
        "upgrade", "host", "content-length", "accept-encoding",
    ]

    init(
        configuration: ProxyConfiguration, client: HTTPClient, observer: (any ExchangeObserver)?,
        now: @escaping @Sendable () -> Date,
        logger: Logger, recordings: RecordingTasks, gate: ProxyGate, spending: SpendCache? = nil
    ) {
        self.spending = spending
        self.gate = gate
        self.recordings = recordings
        self.configuration = configuration
        self.client = client
        self.observer = observer
        self.now = now
        self.logger = logger
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        if let refusal = gate.check(authority: request.head.authority, headers: request.headers) {
            return await refuse(request, refusal, start: start)
        }
        if configuration.health, request.uri.path == Self.healthPath { return Self.health(request) }
        let path = request.uri.path
        let rest: String
        switch ProxyPath(path) {
        case .upstream(let below): rest = below
        case .notProxied:
            return ProxyFailure.response(
                404,
                "the proxy forwards /v1/... only (asked for \(path)); point the client's base URL at http://HOST:PORT/v1",
                code: "not_found")
        case .outside(let reason):
            return await refuse(
                request, ProxyGate.Refusal(status: 400, code: "path_outside_upstream", reason: reason), start: start)
        }
        let incoming = request.headers.map { ($0.name.rawName, $0.value) }
        var secrets: [String] = []
        let clientKey = incoming.first { $0.0.lowercased() == "authorization" }.map { Self.bearer($0.1) }
        if let clientKey, !clientKey.isEmpty { secrets.append(clientKey) }
        let user: String?
        switch await admission(presenting: clientKey) {
        case .admitted(let name): user = name
        case .refused(let refusal, let name): return await refuse(request, refusal, start: start, user: name)
        }
        if let token = configuration.token { secrets.append(token) }
        var headers = incoming.filter { !Self.hopByHop.contains($0.0.lowercased()) }
        if let key = configuration.upstreamKey {
            headers.removeAll { $0.0.lowercased() == "authorization" }
            headers.append(("Authorization", "Bearer \(key)"))
            secrets.append(key)
        }
        let url = configuration.upstream + rest + (request.uri.query.map { "?\($0)" } ?? "")
        // Every secret the request carries, for the stream's tap as for the inspector (`RequestSecrets`).
        secrets += RequestSecrets.values(apiKey: nil, headers: headers, url: url)
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in headers { outgoing.headers.add(name: name, value: value) }

        // The body: read whole (and recorded exactly) up to the limit, streamed past it.
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        var recordedBody: [UInt8]
        if let declared, declared > configuration.keptRequestBytes {
            outgoing.body = .stream(request.body, length: .known(Int64(declared)))
            let type = request.headers[.contentType] ?? "application/octet-stream"
            recordedBody = Array(
                "<\(declared) bytes of \(type) forwarded, not kept (over \(configuration.keptRequestBytes >> 20) MB)>"
                    .utf8)
        } else {
            var whole = request
            let buffer: ByteBuffer
            do {
                buffer = try await whole.collectBody(upTo: configuration.keptRequestBytes)
            } catch {
                return ProxyFailure.response(
                    413,
                    "a request body without Content-Length may be at most \(configuration.keptRequestBytes >> 20) MB",
                    code: "request_too_large")
            }
            recordedBody = Array(buffer.readableBytesView)
            if buffer.readableBytes > 0 || declared != nil { outgoing.body = .bytes(buffer) }
        }

        var labels = ["source": "proxy"]
        labels["client"] = ClientIdentity.describe(incoming)
        labels["provider"] = configuration.provider
        let recording = await observer?.exchangeWillStart(
            ExchangeRequest(
                startedAt: now(), method: request.method.rawValue, url: url, headers: headers, body: recordedBody,
                secrets: secrets, context: ExchangeContext(labels: labels, user: user)))
        recordedBody = []

        let upstream: HTTPClientResponse
        do {
            upstream = try await client.execute(outgoing, timeout: .hours(24))
        } catch {
            let failure = ResponsesAPIError(asyncHTTPClient: error, url: url)
            if failure.code == .cancelled {
                await recording?.didFinish(
                    ExchangeOutcome(state: .cancelled, error: failure, duration: ContinuousClock.now - start))
                throw error
            }
            var described = failure
            described.message = "upstream \(configuration.upstream) unreachable: \(failure.message)"
            await recording?.didFinish(
                ExchangeOutcome(state: .failed, error: described, duration: ContinuousClock.now - start))
            logger.warning("upstream failed", metadata: ["url": "\(url)", "error": "\(failure.message)"])
            return ProxyFailure.response(502, described.message, code: "upstream_unreachable")
        }
        let responseHeaders = upstream.headers.map { ($0.name, $0.value) }
        recording?.didReceiveHead(
            ExchangeResponseHead(
                status: Int(upstream.status.code), headers: responseHeaders,
                timeToFirstByte: ContinuousClock.now - start))
        var fields = HTTPFields()
        for (name, value) in responseHeaders where !Self.hopByHop.contains(name.lowercased()) {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        let length = upstream.headers.first(name: "content-length").flatMap { Int($0) }
        let forwarding = Forwarding(
            upstream: upstream, recording: recording, start: start, configuration: configuration,
            recordings: recordings,
            requestID: upstream.headers.first(name: "x-request-id"), secrets: secrets, logger: logger)
        return Response(
            status: HTTPResponse.Status(code: Int(upstream.status.code)), headers: fields,
            body: ResponseBody(contentLength: length) { writer in try await forwarding.run(&writer) })
    }

    /// The token of `Bearer TOKEN` (or the whole value when it has no scheme).
    static func bearer(_ value: String) -> String {
        value.lowercased().hasPrefix("bearer ")
            ? String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces) : value
    }
}
