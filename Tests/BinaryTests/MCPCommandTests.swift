import Foundation
import TestSupport
import Testing

/// `openresponses mcp list|tools|call` against the real `mcp-server-time`, and declarations that are wrong,
/// each named by file, line and key path.
@Suite(
    "mcp list, tools and call (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPCommandTests {
    func run(_ arguments: [String], config: String) async throws -> Subprocess.Result {
        let server = try await LoopbackServer.start(route: { _ in .json("{}") })
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try MCPServers.writeConfig(config, in: harness)
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["mcp"] + arguments, environment: harness.variables)
        await server.stop()
        return result
    }

    var timeConfig: String {
        get throws {
            """
            mcp_servers:
              time: {command: [\(try MCPServers.program("mcp-server-time")), --local-timezone, UTC]}
              later: {url: "http://127.0.0.1:9/mcp", headers: {X-Token: "${MCP_TEST_TOKEN}"}}
            mcp: [time]
            """
        }
    }

    @Test func listShowsEachServerWithoutStartingIt() async throws {
        let result = try await run(["list"], config: try timeConfig)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("on  time  ") && lines[0].contains("mcp-server-time --local-timezone UTC"))
        #expect(lines[1].hasPrefix("off later  http://127.0.0.1:9/mcp"))
    }

    @Test func toolsStartsTheServerAndNamesItsToolsAsTheModelSeesThem() async throws {
        let result = try await run(["tools", "time"], config: try timeConfig)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("time__get_current_time  "))
        #expect(result.stdout.contains("time__convert_time  "))
        #expect(result.stderr.hasPrefix("[time: 2 tools, started in "), "\(result.stderr)")
    }

    @Test func callRunsOneToolAndAFailedCallExitsWithOne() async throws {
        let good = try await run(
            ["call", "time", "get_current_time", #"{"timezone":"Asia/Tokyo"}"#], config: try timeConfig)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("Asia/Tokyo"))
        let bad = try await run(
            ["call", "time", "get_current_time", #"{"timezone":"Mars/Olympus"}"#], config: try timeConfig)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("Mars/Olympus"), "\(bad.stderr)")
        let unknown = try await run(["tools", "nosuch"], config: try timeConfig)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no MCP server is named 'nosuch' (declared: time, later)"), "\(unknown.stderr)")
    }

    @Test func wrongDeclarationsAreNamedByFileLineAndKey() async throws {
        let both = try await run(["list"], config: "mcp_servers:\n  x: {command: a, url: \"http://h/\"}\n")
        #expect(both.status == 2)
        #expect(both.stderr.contains("config.yaml:3:"), "\(both.stderr)")
        #expect(both.stderr.contains("mcp_servers.x.command: give either command"), "\(both.stderr)")
        let named = try await run(["list"], config: "mcp_servers:\n  a__b: {command: a}\n")
        #expect(named.status == 2)
        #expect(named.stderr.contains("mcp_servers.a__b: a server's name is letters"), "\(named.stderr)")
        let missing = try await run(["list"], config: "mcp_servers:\n  a: {command: a}\nmcp: [a, b]\n")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("config.yaml: mcp[1]: no server 'b' under mcp_servers:"), "\(missing.stderr)")
        let literal = try await run(["list"], config: "mcp_servers:\n  a: {url: \"http://h/\", headers: {X: secret}}\n")
        #expect(literal.status == 2)
        #expect(literal.stderr.contains("mcp_servers.a.headers.X: literal values are not allowed"), "\(literal.stderr)")
    }
}
