import Foundation
import Spawning
import TestSupport
import Testing

/// A server reached by URL (streamable HTTP), on the official Python SDK: answering with event streams and a
/// session id (its default), and with plain JSON. `mcp call` and an `ask --yes` whose model calls its tool.
@Suite(
    "MCP servers over HTTP (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPHTTPTests {
    /// Starts the HTTP server (`json` for plain JSON answers) and returns it with its URL.
    func start(json: Bool, in directory: URL) async throws -> (RunningChild, String) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("webby.py")
        try MCPServers.httpServer.write(to: script, atomically: true, encoding: .utf8)
        let child = try RunningChild(
            ChildProcess(
                try MCPServers.program("python"), [script.path] + (json ? ["json"] : []),
                environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path]))
        var iterator = child.output.makeAsyncIterator()
        let first = try #require(await iterator.next(), "the server printed no port")
        let port = String(decoding: first, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let url = "http://127.0.0.1:\(port)/mcp"
        // Until it answers (uvicorn starts after the port is printed): any HTTP status will do. A GET of the
        // endpoint may open the server's event stream and never end, hence the short bound.
        for _ in 0..<300 {
            let probe = try await Subprocess.run(
                "/usr/bin/curl",
                ["-s", "-o", "/dev/null", "--max-time", "1", "-w", "%{http_code}", "-X", "DELETE", url],
                environment: [:])
            if probe.stdout != "000" && !probe.stdout.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        return (child, url)
    }

    @Test(arguments: [false, true])
    func aToolOfAServerByURLIsCalledAndItsAnswerGoesBack(json: Bool) async throws {
        let server = try await LoopbackServer.start(
            route: MCPServers.callingRoute("web__echo", arguments: #"{"text":"over http"}"#))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let (web, url) = try await start(json: json, in: harness.home.appendingPathComponent("web"))
        try MCPServers.writeConfig("mcp_servers:\n  web: {url: \"\(url)\", trusted: true}\nmcp: [web]\n", in: harness)
        let call = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["mcp", "call", "web", "echo", #"{"text":"hi"}"#],
            environment: harness.variables)
        #expect(call.status == 0, "\(call.stderr)")
        #expect(call.stdout == "echo: hi\n")
        let ask = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "say it over http"], environment: harness.variables, stdin: "")
        #expect(ask.status == 0, "\(ask.stderr)")
        #expect(ask.stdout == "tool said: echo: over http\n", "\(ask.stderr)")
        await web.stop(grace: .zero)
        await server.stop()
    }
}
