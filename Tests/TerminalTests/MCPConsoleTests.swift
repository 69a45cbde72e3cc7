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
        try tmux.type("/mcp")
        try await tmux.waitFor("on  time  not started")
        try tmux.type("what time is it?")
        let question = "Allow time to run get_current_time({\"timezone\":\"UTC\"})? [y/N] "
        try await tmux.waitFor(question)
        try tmux.type("n")
        try await tmux.waitFor("tool said: the user declined to run get_current_time of time")
        try tmux.type("and now?")
        try await tmux.waitFor(question, count: 2)
        try tmux.type("y")
        try await tmux.waitFor("[time get_current_time → {")
        try await tmux.waitFor("tool said: {")
        let outputs = try server.requests.compactMap { request in
            try JSONValue.parse(request.body)["input"]?.arrayValue?.first { $0["type"] == "function_call_output" }
        }
        try #require(outputs.count == 2)
        #expect(outputs[1]["output"]?.stringValue?.contains("\"timezone\": \"UTC\"") == true)
        try tmux.type("/mcp")
        try await tmux.waitFor("on  time  running, 2 tools, started in ")
        try tmux.type("/mcp tools t", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("/mcp tools time ")
        try tmux.press("Enter")
        try await tmux.waitFor("time__convert_time  ")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }
}
