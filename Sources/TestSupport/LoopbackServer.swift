import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 (a free port), for tests and benchmarks. Each request is
/// answered by the route function with a `Reply`: a status, headers and a script of body parts, delays
/// and connection drops, written with chunked encoding as it plays.
public final class LoopbackServer: Sendable {
    public typealias Route = @Sendable (ReceivedRequest) -> Reply

    public let port: Int
    private let channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
    private let received = Mutex<[ReceivedRequest]>([])
    private let serving: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let aborted = Mutex(0)
    private let completed = Mutex(0)

    /// `http://127.0.0.1:PORT/v1`
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Replies whose writing failed because the client closed the connection before the end (a client that
    /// gives up mid-stream, or a proxy that cancels its upstream request).
    public var abortedReplies: Int { aborted.withLock { $0 } }

    /// Replies written to their end (a dropped connection the script asked for counts too).
    public var completedReplies: Int { completed.withLock { $0 } }

    /// Every request received so far, in order.
    public var requests: [ReceivedRequest] { received.withLock { $0 } }

    private init(
        channel: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>, port: Int
    ) {
        self.channel = channel
        self.port = port
    }

    /// Starts a server answering every request with `route`.
    public static func start(port: Int = 0, route: @escaping Route) async throws -> LoopbackServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: "127.0.0.1", port: port) { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                        wrappingChannelSynchronously: child)
                }
            }
        let server = LoopbackServer(channel: channel, port: channel.channel.localAddress?.port ?? 0)
        // Served on threads of its own (`ServerExecutor`), so a busy concurrency pool cannot hold its replies.
        let task = Task(executorPreference: ServerExecutor.shared) {
            _ = try? await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await server.serve(connection, route: route) }
                    }
                }
            }
        }
        server.serving.withLock { $0 = task }
        return server
    }

    /// Stops listening and closes the connections.
    public func stop() async {
        try? await channel.channel.close()
        let task = serving.withLock { $0 }
        task?.cancel()
        _ = await task?.value
    }

    private func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, route: Route
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            var body: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let requestHead):
                    head = requestHead
                    body = []
                case .body(let buffer):
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    guard let requestHead = head else { continue }
                    let request = ReceivedRequest(
                        method: requestHead.method.rawValue, uri: requestHead.uri,
                        headers: requestHead.headers.map { ($0.name, $0.value) }, body: body)
                    received.withLock { $0.append(request) }
                    let keepOpen: Bool
                    do {
                        keepOpen = try await play(route(request), to: outbound, channel: connection.channel)
                    } catch {
                        aborted.withLock { $0 += 1 }
                        throw error
                    }
                    completed.withLock { $0 += 1 }
                    if !keepOpen { return }
                }
            }
        }
    }

    /// Writes a reply; returns false when the script dropped the connection.
    private func play(
        _ reply: Reply, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, channel: any Channel
    ) async throws -> Bool {
        if let gate = reply.headGate { await gate.wait() }
        var headers = HTTPHeaders(reply.headers)
        let whole = reply.parts.allSatisfy { if case .bytes = $0 { true } else { false } }
        if whole {
            let length = reply.parts.reduce(0) { total, part in
                if case .bytes(let bytes) = part { total + bytes.count } else { total }
            }
            headers.replaceOrAdd(name: "content-length", value: String(length))
        } else {
            headers.replaceOrAdd(name: "transfer-encoding", value: "chunked")
        }
        try await outbound.write(
            .head(
                HTTPResponseHead(
                    version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)))
        for part in reply.parts {
            switch part {
            case .bytes(let bytes):
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: bytes))))
            case .pause(let duration):
                try await Task.sleep(for: duration)
            case .wait(let gate):
                await gate.wait()
            case .dropConnection:
                // Writes are queued, not yet on the socket: the event loop closes the connection a moment
                // later, so the client receives everything before it goes. (A sleep here waited for the
                // concurrency pool, which a full test run keeps busy for a minute or more: the drop came so
                // late that the client's stream ended by a timeout instead.)
                try await channel.eventLoop.scheduleTask(in: .milliseconds(50)) { channel.close(promise: nil) }
                    .futureResult.get()
                return false
            }
        }
        try await outbound.write(.end(nil))
        return true
    }
}

/// A request as the server received it.
public struct ReceivedRequest: Sendable {
    public var method: String
    public var uri: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public var path: String { String(uri.split(separator: "?", maxSplits: 1).first ?? "") }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }

    /// The body parsed as a JSON object (nil when it is not one).
    public var jsonBody: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
