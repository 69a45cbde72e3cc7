import Foundation
import Testing

@testable import TestSupport

/// How the peer suites find the peer: the environment first, else a short probe of the usual address that
/// must answer 200 and list the echo model; anything else is no peer (the suites are then skipped).
@Suite("Finding the peer")
struct PeerDiscoveryTests {
    @Test func theEnvironmentDecidesFirst() {
        #expect(
            PeerServer.discover(environment: ["OPENRESPONSES_PEER_URL": "http://10.0.0.9:8321/v1"]).url
                == "http://10.0.0.9:8321/v1")
        let skipped = PeerServer.discover(environment: [
            "OPENRESPONSES_SKIP_PEER": "1", "OPENRESPONSES_PEER_URL": "http://10.0.0.9:8321/v1",
        ])
        #expect(skipped.url == nil)
        #expect(skipped.reason == "OPENRESPONSES_SKIP_PEER=1 leaves the peer out")
    }

    /// The probe blocks its thread: it runs on one of its own, so the loopback server's tasks keep theirs. Its
    /// bound is generous (a whole run keeps the server busy); it returns as soon as the answer is complete.
    static func probe(_ baseURL: String) async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: PeerServer.models(at: baseURL, timeout: 60)) }.start()
        }
    }

    @Test func theProbeReadsTheModelsOfAServerThatAnswers() async throws {
        let models = #"{"data":[{"id":"openai/minilm","object":"model"},{"id":"openai/echo","object":"model"}]}"#
        let server = try await LoopbackServer.start { request in
            request.path == "/v1/models" ? .json(models) : .json(#"{"error":{"message":"no route"}}"#, status: 404)
        }
        #expect(await Self.probe(server.baseURL) == models)
        #expect(await Self.probe(server.baseURL + "/elsewhere") == nil, "a 404 is no peer")
        #expect(PeerServer.models(at: "https://127.0.0.1:\(server.port)/v1", timeout: 1) == nil, "plain http only")
        await server.stop()
        let refusing = try RefusingPort()
        let refused = await Self.probe(refusing.baseURL)
        #expect(refused == nil && refusing.port > 0, "a refused connection is no peer")
    }
}
