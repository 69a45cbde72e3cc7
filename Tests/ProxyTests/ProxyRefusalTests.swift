import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// Requests the proxy refuses before anything reaches the upstream, each answered with an OpenAI-shaped
/// error and recorded as refused: a web page's (it carries an `Origin`), a DNS-rebinding page's (its `Host` is
/// another name), a path that climbs out of the upstream's `/v1`.
@Suite("recording proxy: refusals")
struct ProxyRefusalTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-refuse-\(UUID().uuidString)")

    /// Makes the scratch folder and starts an upstream that lists nothing with a proxy in front of it;
    /// `out` is where a curl through it writes the body it gets.
    func start() async throws -> (proxy: ProxyHarness, upstream: LoopbackServer, out: URL) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let upstream = try await LoopbackServer.start { _ in .json(#"{"object":"list","data":[]}"#) }
        return (
            try await ProxyHarness.start(upstream: upstream.baseURL), upstream, scratch.appendingPathComponent("out")
        )
    }

    /// The error a refused client got, as JSON.
    func error(in file: URL) throws -> JSONValue? {
        try JSONValue.parse(Array(try Data(contentsOf: file)))["error"]
    }

    @Test func aWebPagesRequestIsRefusedAndRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (proxy, upstream, out) = try await start()
        defer { proxy.remove(stopping: upstream) }

        // What a page's fetch() or form sends: text/plain needs no preflight, and the browser adds its Origin.
        let page = try await proxy.curl(
            "/responses",
            [
                "-H", "Origin: https://evil.example", "-H", "Content-Type: text/plain", "-H",
                "Authorization: Bearer sk-page-0009",
                "--data-binary", #"{"model":"m","input":"spend it"}"#,
            ], output: out)
        #expect(page.stdout == "403")
        #expect(try error(in: out)?["code"] == "forbidden_origin")
        #expect(try error(in: out)?["type"] == "proxy_error")
        // A DNS-rebinding page: the browser connects to 127.0.0.1 but names its own host.
        let rebinding = try await proxy.curl("/models", ["-H", "Host: rebind.evil.example:\(proxy.port)"], output: out)
        #expect(rebinding.stdout == "403")
        #expect(try error(in: out)?["code"] == "forbidden_host")
        let otherPort = try await proxy.curl(
            "/models", ["-H", "Host: 127.0.0.1:\(proxy.port == 1 ? 2 : 1)"], output: out)
        #expect(otherPort.stdout == "403")
        // An image or a navigation from a page carries no Origin, but its fetch metadata or Referer.
        for header in ["Sec-Fetch-Site: cross-site", "Sec-Fetch-Mode: no-cors", "Referer: https://evil.example/page"] {
            let browser = try await proxy.curl("/models", ["-H", header], output: out)
            #expect(browser.stdout == "403", "\(header)")
            #expect(try error(in: out)?["code"] == "forbidden_origin", "\(header)")
        }
        #expect(upstream.requests.isEmpty, "nothing refused reaches the upstream")

        // The names of the address it listens on pass.
        let byAddress = try await proxy.curl("/models", [], output: out)
        #expect(byAddress.stdout == "200")
        let byName = try await proxy.curl("/models", ["-H", "Host: localhost:\(proxy.port)"], output: out)
        #expect(byName.stdout == "200")
        #expect(upstream.requests.count == 2)

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(rows.count == 8, "the refused requests are recorded too")
        let refused = rows.prefix(3)
        #expect(
            refused.allSatisfy {
                $0.summary.status == 403 && $0.summary.state == "failed" && $0.summary.source == "proxy"
            })
        #expect(
            refused.allSatisfy { $0.summary.errorMessage?.hasPrefix("refused by the proxy: ") == true },
            "\(refused.map(\.summary.errorMessage))")
        #expect(refused.first?.summary.errorMessage?.contains("https://evil.example") == true)
        #expect(
            String(decoding: refused.first?.requestBody ?? [], as: UTF8.self) == #"{"model":"m","input":"spend it"}"#)
        #expect(rows[1].summary.errorMessage?.contains("rebind.evil.example:\(proxy.port)") == true)
        #expect(rows.suffix(2).allSatisfy { $0.summary.status == 200 && $0.summary.state == "completed" })
        #expect(try !proxy.storeContains("sk-page-0009"), "a refused request's key is not stored either")
    }

    @Test func aPathThatClimbsOutOfV1IsRefusedAndRecorded() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (proxy, upstream, out) = try await start()
        defer { proxy.remove(stopping: upstream) }

        for path in [
            "/../../x", "/..", "/%2e%2e/%2E%2E/x", "/models/.%2E/../admin", "/..%2f..%2fx", "/..;/..;/x",
            "/%252e%252e/%252e%252e/x",
        ] {
            let result = try await proxy.curl(path, ["--path-as-is"], output: out)
            #expect(result.stdout == "400", "\(path)")
            #expect(try error(in: out)?["code"] == "path_outside_upstream", "\(path)")
        }
        #expect(upstream.requests.isEmpty, "\(upstream.requests.map(\.uri))")
        // Dot segments that stay under /v1 are resolved before the request goes on.
        let inside = try await proxy.curl("/models/../responses/./resp_1", ["--path-as-is"], output: out)
        #expect(inside.stdout == "200")
        #expect(upstream.requests.map(\.path) == ["/v1/responses/resp_1"])

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(rows.count == 8)
        #expect(
            rows.prefix(7).allSatisfy {
                $0.summary.status == 400 && $0.summary.errorMessage?.hasPrefix("refused by the proxy: ") == true
            })
        #expect(rows.first?.summary.url.hasSuffix("/v1/../../x") == true, "\(rows.first?.summary.url ?? "")")
    }

    @Test func anIdleConnectionIsClosed() async throws {
        let upstream = try await LoopbackServer.start { _ in .json(#"{"object":"list","data":[]}"#) }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL, idleTimeout: .milliseconds(500))
        defer { proxy.remove(stopping: upstream) }
        // A connection that never sends a request, and one that sent one and then says nothing more.
        // Bounds on a hang, generous for a loaded machine: the timeout itself is half a second.
        let silent = try await IdleSocket.closedByPeer(port: proxy.port, sending: nil, within: .seconds(60))
        #expect(silent.closed, "a silent connection is closed (after \(silent.after))")
        let request = "GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:\(proxy.port)\r\n\r\n"
        let keptAlive = try await IdleSocket.closedByPeer(port: proxy.port, sending: request, within: .seconds(60))
        #expect(keptAlive.closed, "a kept-alive connection is closed once idle (after \(keptAlive.after))")
        #expect(keptAlive.received.hasPrefix("HTTP/1.1 200"), "\(keptAlive.received)")
        _ = try await proxy.stop()
    }
}
