import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// `--health`: `GET /health` answered by the proxy itself for a load balancer, without a token, never
/// forwarded and never recorded; the gate's `Host` and `Origin` rules hold for it as for every request.
@Suite("recording proxy: /health")
struct ProxyHealthTests {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-health-\(UUID().uuidString)")

    @Test func itAnswersWithoutATokenAndReachesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(#"{"status":"upstream"}"#) }
        let users = ProxyUsers([.init(name: "alice", token: "s3cr3t-alice")])
        let proxy = try await ProxyHarness.start(
            upstream: upstream.baseURL, upstreamKey: "sk-team-0020", users: users, health: true)
        defer { proxy.remove(stopping: upstream) }
        let root = "http://127.0.0.1:\(proxy.port)"
        func get(_ url: String, _ arguments: [String] = []) async throws -> (String, String) {
            let result = try await Subprocess.run(
                "/usr/bin/curl", ["-sS", "-o", out.path, "-w", "%{http_code}"] + arguments + [url],
                environment: ["PATH": "/usr/bin:/bin"])
            return (result.stdout, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
        }
        let (status, body) = try await get(root + "/health")
        #expect(status == "200" && body == #"{"status":"ok"}"#)
        #expect(try await get(root + "/health?probe=1").0 == "200")
        #expect(try await get(root + "/health", ["-X", "POST", "--data", "x"]).0 == "405")
        // The gate comes first: a web page, or a name that is not the proxy's, is refused as anywhere.
        #expect(try await get(root + "/health", ["-H", "Origin: https://evil.example"]).0 == "403")
        #expect(try await get(root + "/health", ["-H", "Host: evil.example:\(proxy.port)"]).0 == "403")
        // Only /health itself: nothing else is answered without a token, nor reaches upstream through it.
        #expect(try await get(root + "/v1/health").0 == "401")
        #expect(try await get(root + "/health/../v1/models", ["--path-as-is"]).0 == "401")
        #expect(try await get(root + "/healthz").0 == "404")
        #expect(upstream.requests.isEmpty, "nothing was forwarded: \(upstream.requests.map(\.path))")

        // Health checks are not recorded; the requests refused are, as every refusal is.
        let store = try await proxy.stop()
        let recorded = try await proxy.exchanges(in: store).map {
            "\(URL(string: $0.summary.url)?.path ?? "?") \($0.summary.status ?? 0)"
        }
        #expect(
            recorded == ["/health 403", "/health 403", "/v1/health 401", "/health/../v1/models 401"], "\(recorded)")
    }

    @Test func withoutTheFlagItIsNotThere() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(#"{"status":"upstream"}"#) }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let result = try await Subprocess.run(
            "/usr/bin/curl", ["-sS", "-o", out.path, "-w", "%{http_code}", "http://127.0.0.1:\(proxy.port)/health"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.stdout == "404")
        #expect(upstream.requests.isEmpty)
        _ = try await proxy.stop()
    }
}
