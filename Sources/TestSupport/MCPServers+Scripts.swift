import Foundation

extension MCPServers {
    /// A server written against the official Python MCP SDK, for the failures the reference servers do not
    /// have: `crash` writes a line to stderr and exits with status 3 mid-call, `hang` never answers, `echo`
    /// returns its text.
    public static let flakyServer = """
        import os, sys, time
        from mcp.server.mcpserver import MCPServer
        server = MCPServer("flaky")
        @server.tool()
        def crash(reason: str) -> str:
            \"\"\"Writes to stderr and exits mid-call.\"\"\"
            print("flaky: giving up because " + reason, file=sys.stderr, flush=True)
            os._exit(3)
        @server.tool()
        def hang() -> str:
            \"\"\"Never answers.\"\"\"
            time.sleep(3600)
            return "late"
        @server.tool()
        def echo(text: str) -> str:
            \"\"\"Returns its text.\"\"\"
            return text
        server.run()
        """

    /// A server on the official Python SDK reached by URL (streamable HTTP): it prints its port, then serves
    /// `echo` at `/mcp`, answering with event streams and a session id (the SDK's default) or, with `json`, with
    /// plain JSON and no session.
    public static let httpServer = """
        import socket, sys
        from mcp.server.mcpserver import MCPServer
        probe = socket.socket(); probe.bind(("127.0.0.1", 0)); port = probe.getsockname()[1]; probe.close()
        print(port, flush=True)
        server = MCPServer("webby")
        @server.tool()
        def echo(text: str) -> str:
            \"\"\"Returns its text.\"\"\"
            return "echo: " + text
        options = {"port": port}
        if "json" in sys.argv: options.update(json_response=True, stateless_http=True)
        server.run(transport="streamable-http", **options)
        """

    /// Writes `flakyServer` into `directory`; returns the `command:` that starts it.
    public static func writeFlakyServer(in directory: URL) throws -> String {
        let script = directory.appendingPathComponent("flaky.py")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try flakyServer.write(to: script, atomically: true, encoding: .utf8)
        return "[\(try program("python")), \(script.path)]"
    }

    /// A loopback route that calls `name(arguments)` first, then answers "tool said: OUTPUT" once the input
    /// carries the call's output.
    public static func callingRoute(_ name: String, arguments: String) -> LoopbackServer.Route {
        { request in
            let items = request.jsonBody?["input"] as? [[String: Any]] ?? []
            if let output = items.first(where: { $0["type"] as? String == "function_call_output" }) {
                let text = output["output"] as? String ?? "\(output["output"] ?? "?")"
                return .sse(Fixtures.textStream(id: "resp_2", text: "tool said: \(text)"))
            }
            return .sse(Fixtures.functionCallStream(id: "resp_1", name: name, callID: "call_1", arguments: arguments))
        }
    }
}
