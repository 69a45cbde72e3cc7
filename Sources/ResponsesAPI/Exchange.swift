import Foundation
import NIOCore

/// One HTTP exchange in flight: builds the wire request, tells the observer each step, and keeps the
/// timing. Shared by every endpoint so that all of them are recorded the same way.
final class Exchange: @unchecked Sendable {
    // Written only by the task that runs the exchange, before any reader looks.
    let client: ResponsesClient
    let request: TransportRequest
    let recording: (any ExchangeRecording)?
    /// The API key and every secret the request's headers and URL carry (`RequestSecrets`).
    let secrets: [String]
    private let start: ContinuousClock.Instant
    private(set) var requestID: String?

    private init(
        client: ResponsesClient, request: TransportRequest, recording: (any ExchangeRecording)?, secrets: [String]
    ) {
        self.client = client
        self.request = request
        self.recording = recording
        self.secrets = secrets
        self.start = .now
    }

    static func begin(
        client: ResponsesClient, method: String, path: String, body: RequestBody?, accept: String,
        context: ExchangeContext, attempt: Int = 0
    ) async -> Exchange {
        var headers = client.configuration.standardHeaders
        headers.append(("Accept", accept))
        var bytes: [UInt8]?
        var streamed: StreamedBody?
        switch body {
        case .json(let json)?:
            headers.append(("Content-Type", "application/json"))
            bytes = json
        case .streamed(let body)?:
            headers.append(("Content-Type", body.contentType))
            streamed = body
        case nil:
            break
        }
        let request = TransportRequest(
            method: method, url: client.configuration.baseURL + path, headers: headers, body: bytes, streamed: streamed)
        let secrets = RequestSecrets.values(apiKey: client.configuration.apiKey, headers: headers, url: request.url)
        let recording = await client.observer?.exchangeWillStart(
            ExchangeRequest(
                startedAt: client.now(), method: method, url: request.url, headers: headers,
                body: bytes ?? streamed?.summary ?? [], secrets: secrets, context: context, attempt: attempt))
        return Exchange(client: client, request: request, recording: recording, secrets: secrets)
    }

    var elapsed: Duration { ContinuousClock.now - start }

    func send() async throws(ResponsesAPIError) -> TransportResponse {
        client.logger.debug("sending", metadata: ["method": "\(request.method)", "url": "\(request.url)"])
        let response = try await client.transport.execute(request)
        requestID = response.header("x-request-id")
        recording?.didReceiveHead(
            ExchangeResponseHead(
                status: response.status, headers: response.headers, timeToFirstByte: elapsed))
        return response
    }

    /// Reads a whole (non-stream) body once, and hands it to the recording.
    func collect(_ body: any AsyncSequence<ByteBuffer, any Error> & Sendable) async throws(ResponsesAPIError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        do {
            for try await chunk in body { bytes.append(contentsOf: chunk.readableBytesView) }
        } catch {
            recording?.didReceiveBody(bytes)
            throw attach(ResponsesAPIError(wrapping: error))
        }
        recording?.didReceiveBody(bytes)
        return bytes
    }

    /// Adds the request id to an error that lacks it.
    func attach(_ error: ResponsesAPIError) -> ResponsesAPIError {
        var error = error
        if error.requestID == nil { error.requestID = requestID }
        return error
    }

    func finish(_ outcome: ExchangeOutcome) async {
        await recording?.didFinish(outcome)
    }
}
