import Foundation
import Inspector
import Proxy
import TestSupport
import Testing

/// A team's gateway holds many streams at once: each open stream keeps one upstream connection (HTTP/1.1), so
/// the number of upstream connections the proxy may open is the number of clients it serves at the same time.
@Suite("recording proxy: many streams at once")
struct ProxyManyStreamsTests {
    static let body = #"{"model":"m","input":"many","stream":true}"#
    static func request(port: Int) -> String {
        "POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer sk-many-0001\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }

    /// 100 clients whose answers the upstream holds until all 100 have asked: each reaches the upstream while
    /// the others wait (a pool capped at 64 connections, as it was, kept the rest queued behind them).
    @Test func aHundredHeldStreamsReachTheUpstreamAtOnce() async throws {
        let gate = Gate()
        let frames = Fixtures.textStream(id: "resp_many", text: "held then answered")
        let upstream = try await LoopbackServer.start { _ in Reply.sse(frames).held(until: gate) }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let clients = 100
        let answers = Task {
            try await withThrowingTaskGroup(of: IdleSocket.Result.self) { group in
                for _ in 0..<clients {
                    group.addTask {
                        try await IdleSocket.closedByPeer(
                            port: proxy.port, sending: Self.request(port: proxy.port), within: .seconds(120))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // The upstream sees every request while none has been answered, or the wait ends (the test then fails).
        let start = ContinuousClock.now
        while upstream.requests.count < clients, ContinuousClock.now - start < .seconds(60) {
            try await Task.sleep(for: .milliseconds(50))
        }
        let heldAtOnce = upstream.requests.count
        gate.open()
        let results = try await answers.value
        #expect(heldAtOnce == clients, "requests the upstream had while none was answered")
        #expect(results.count == clients)
        #expect(results.allSatisfy { $0.closed && $0.received.hasPrefix("HTTP/1.1 200") })
        #expect(results.allSatisfy { $0.received.contains("response.completed") }, "each answer whole")
        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(rows.count == clients, "each stream is recorded")
        #expect(rows.allSatisfy { $0.summary.state == "completed" && $0.events.count == frames.count })
    }
}
