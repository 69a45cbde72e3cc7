import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// Whose key goes upstream, and who may use the proxy: the client's key by default, the proxy's own with
/// `--key-from-env`, which needs a `--token` that only clients that know it send as their key. No key or
/// token reaches the store.
@Suite("recording proxy: keys and tokens")
struct ProxyKeysTests {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-keys-\(UUID().uuidString)")

    @Test func theProxysOwnKeyReplacesTheClientsAndATokenGuardsIt() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(#"{"object":"list","data":[]}"#) }
        defer { Task { await upstream.stop() } }

        let fromEnv = try await ProxyHarness.start(
            upstream: upstream.baseURL, token: "dummy-key-0005", upstreamKey: "sk-env-secret-0004")
        defer { fromEnv.remove() }
        let dummy = try await fromEnv.curl("/models", ["-H", "Authorization: Bearer dummy-key-0005"], output: out)
        #expect(dummy.stdout == "200")
        #expect(upstream.requests.last?.header("authorization") == "Bearer sk-env-secret-0004")
        _ = try await fromEnv.stop()
        #expect(try !fromEnv.storeContains("sk-env-secret-0004"))
        #expect(try !fromEnv.storeContains("dummy-key-0005"))

        let guarded = try await ProxyHarness.start(
            upstream: upstream.baseURL, token: "tok-secret-0006", upstreamKey: "sk-env-secret-0004")
        defer { guarded.remove() }
        let before = upstream.requests.count
        let refused = try await guarded.curl("/models", ["-H", "Authorization: Bearer wrong"], output: out)
        #expect(refused.stdout == "401")
        let error = try JSONValue.parse(Array(try Data(contentsOf: out)))
        #expect(error["error"]?["code"] == "invalid_proxy_token")
        #expect(upstream.requests.count == before, "a refused client reaches nothing")
        let allowed = try await guarded.curl("/models", ["-H", "Authorization: Bearer tok-secret-0006"], output: out)
        #expect(allowed.stdout == "200")
        #expect(
            upstream.requests.last?.header("authorization") == "Bearer sk-env-secret-0004", "the token is not forwarded"
        )
        _ = try await guarded.stop()
        #expect(try !guarded.storeContains("tok-secret-0006"))
        #expect(try !guarded.storeContains("sk-env-secret-0004"))
    }

    @Test func listeningBeyondLoopbackNeedsAToken() throws {
        let open = ProxyConfiguration(host: "0.0.0.0", port: 8787, upstream: "https://api.openai.com/v1")
        #expect(throws: ProxyError.self) { try open.validate() }
        do { try open.validate() } catch {
            #expect(
                error.message
                    == "--listen 0.0.0.0:8787 is reachable from other machines: give --token SECRET (clients send it as their key) or --tokens-file FILE"
            )
        }
        let tokenOnly = ProxyConfiguration(host: "0.0.0.0", upstream: "https://api.openai.com/v1", token: "t")
        do { try tokenOnly.validate() } catch {
            #expect(error.message.hasPrefix("--token needs the key the proxy sends upstream"))
        }
        let guarded = ProxyConfiguration(
            host: "0.0.0.0", upstream: "https://api.openai.com/v1", token: "t", upstreamKey: "k")
        try guarded.validate()
        try ProxyConfiguration(upstream: "http://127.0.0.1:8321/v1").validate()
        do { try ProxyConfiguration(upstream: "api.openai.com").validate() } catch {
            #expect(
                error.message == "--upstream api.openai.com: not an http(s) URL (example: https://api.openai.com/v1)")
        }
    }
}
