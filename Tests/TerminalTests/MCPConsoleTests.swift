import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The console with a local MCP server (the real `mcp-server-time`) in a real terminal: `/mcp` shows it, the
/// model's call asks first with the server, tool and arguments on one line, a no is told to the model, a yes
/// runs the tool and its answer goes back; Tab completes the server's name.
@Suite(
    "local MCP servers in the console (tmux)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPConsoleTests {
    @Test func aCallIsAskedForDeclinedThenAccepted() async throws {
        let server = try await LoopbackServer.start(
            route: MCPServers.callingRoute("time__get_current_time", arguments: #"{"timezone":"UTC"}"#))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try MCPServers.writeConfig(
            """
            mcp_servers:
              time: {command: [\(try MCPServers.program("mcp-server-time")), --local-timezone, UTC]}
            mcp: [time]
            """, in: harness)
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try await tmux.send("/mcp", until: "on  time  not started")
        let question = "Allow time to run get_current_time({\"timezone\":\"UTC\"})? [y/N] "
        try await tmux.send("what time is it?", until: question)
        try await tmux.send("n", until: "tool said: the user declined to run get_current_time of time")
        try await tmux.send("and now?", until: question, count: 2)
        try await tmux.send("y", until: "[time get_current_time → {")
        try await tmux.waitFor("tool said: {")
        let outputs = try server.requests.compactMap { request in
            try JSONValue.parse(request.body)["input"]?.arrayValue?.first { $0["type"] == "function_call_output" }
        }
        try #require(outputs.count == 2)
        #expect(outputs[1]["output"]?.stringValue?.contains("\"timezone\": \"UTC\"") == true)
        try await tmux.send("/mcp", until: "on  time  running, 2 tools, started in ")
        try await tmux.complete("/mcp tools t", to: "/mcp tools time ")
        try await tmux.send("", until: "time__convert_time  ")
        try await tmux.quit()
        await server.stop()
    }
}
