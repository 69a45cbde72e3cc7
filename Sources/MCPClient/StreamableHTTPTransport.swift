import AsyncHTTPClient
import Foundation
import Logging
import MCP
import NIOCore
import NIOHTTP1
import ResponsesAPI
import Synchronization

/// The SDK's `Transport` for a server reached by URL (MCP's streamable HTTP), over AsyncHTTPClient: each message
/// is POSTed, and the reply read as it comes, whether the server answers with JSON or with an event stream
/// (`text/event-stream`, read with the project's `SSEDecoder`). The SDK's own `HTTPClientTransport` reads event
/// streams only where Foundation has EventSource, which Linux's does not; and it reads a body with no cap.
/// The session id a server gives (`Mcp-Session-Id`) is sent back with each message.
public actor StreamableHTTPTransport: Transport {
    public nonisolated let logger: Logger
    let url: String
    let headers: [(String, String)]
    let server: String
    let maximumMessageBytes: Int
    let timeout: Duration
    private let client = HTTPClient(eventLoopGroupProvider: .singleton)
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var sessionID: String?
    private var readers: [Task<Void, Never>] = []
    private var closed = false
    /// Why it ended, for the call that waits; nil while it runs.
    private nonisolated let ended = Mutex<MCPServerError?>(nil)

    nonisolated var closure: MCPServerError? { ended.withLock { $0 } }

    init(
        url: String, headers: [(String, String)], server: String, timeout: Duration, logger: Logger,
        maximumMessageBytes: Int = ChildProcessTransport.defaultMaximumMessageBytes
    ) {
        self.url = url
        self.headers = headers
        self.server = server
        self.timeout = timeout
        self.logger = logger.forTheSDK
        self.maximumMessageBytes = maximumMessageBytes
        (messages, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    public func connect() async throws {}

    public func disconnect() async {
        guard !closed else { return }
        closed = true
        readers.forEach { $0.cancel() }
        continuation.finish(throwing: MCPServerError(.exited, server: server, "the MCP server \(server) was stopped"))
        try? await client.shutdown()
    }

    public nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { messages }

    public func send(_ data: Data) async throws {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json, text/event-stream")
        if let sessionID { request.headers.add(name: "Mcp-Session-Id", value: sessionID) }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: data))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(
                request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
        } catch {
            throw MCPServerError(
                .exited, server: server, "the MCP server \(server) (\(url)) cannot be reached: \(error)")
        }
        if let id = response.headers.first(name: "Mcp-Session-Id") { sessionID = id }
        guard (200..<300).contains(response.status.code) else {
            throw MCPServerError(
                .server, server: server,
                "the MCP server \(server) answered HTTP \(response.status.code) \(response.status.reasonPhrase)")
        }
        if response.status.code == 202 { return }
        let type = response.headers.first(name: "Content-Type")?.lowercased() ?? ""
        // The reply is read apart from the send: an event stream may bring notifications before the answer.
        readers.append(Task { await self.read(response.body, eventStream: type.hasPrefix("text/event-stream")) })
    }

    /// Yields the messages of one reply: its body whole (JSON), or each event's data (an event stream). Neither
    /// a body nor one event may pass `maximumMessageBytes`.
    private func read(_ body: HTTPClientResponse.Body, eventStream: Bool) async {
        var decoder = SSEDecoder()
        var pending: [UInt8] = []
        var sinceEvent = 0
        do {
            for try await buffer in body {
                if eventStream {
                    sinceEvent += buffer.readableBytes
                    var found: [Data] = []
                    decoder.push(buffer.readableBytesView) { event in
                        if !event.data.isEmpty { found.append(Data(event.data)) }
                    }
                    if !found.isEmpty { sinceEvent = 0 }
                    for message in found { continuation.yield(message) }
                } else {
                    pending += buffer.readableBytesView
                }
                if max(pending.count, sinceEvent) > maximumMessageBytes {
                    fail(
                        MCPServerError(
                            .protocolViolation, server: server,
                            "the MCP server \(server) sent a reply over \(maximumMessageBytes >> 20) MiB"))
                    return
                }
            }
            if eventStream {
                decoder.finish { event in if !event.data.isEmpty { continuation.yield(Data(event.data)) } }
            } else if !pending.isEmpty {
                continuation.yield(Data(pending))
            }
        } catch {
            if !closed {
                logger.error("reading a reply failed", metadata: ["mcp.server": "\(server)", "error": "\(error)"])
            }
        }
    }

    private func fail(_ error: MCPServerError) {
        closed = true
        ended.withLock { $0 = $0 ?? error }
        continuation.finish(throwing: error)
    }
}
