import Foundation
import TestSupport
import Testing

/// `ask` with local MCP servers: the built binary, a loopback Responses server that calls their tools, and real
/// servers nobody here wrote (`mcp-server-time`, `mcp-server-git`, and one on the official Python SDK that
/// crashes or hangs on request).
@Suite(
    "ask with local MCP servers (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPAskTests {
    func run(
        _ route: @escaping LoopbackServer.Route, config: String, arguments: [String],
        then later: ((_ command: [String]) async throws -> Subprocess.Result) async throws -> Void = { _ in }
    ) async throws -> (result: Subprocess.Result, requests: [ReceivedRequest]) {
        let server = try await LoopbackServer.start(route: route)
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try MCPServers.writeConfig(config, in: harness)
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask"] + arguments, environment: harness.variables, stdin: "")
        try await later { try await Subprocess.run(Subprocess.openresponsesBinary, $0, environment: harness.variables) }
        await server.stop()
        return (result, server.requests)
    }

    static func timeConfig(trusted: Bool = false) throws -> String {
        """
        mcp_servers:
          time:
            command: [\(try MCPServers.program("mcp-server-time")), --local-timezone, UTC]
            trusted: \(trusted)
        mcp: [time]
        """
    }

    @Test func withYesTheModelCallsTheTimeServersToolAndGetsItsAnswer() async throws {
        var after: [Subprocess.Result] = []
        let (result, requests) = try await run(
            MCPServers.callingRoute("time__get_current_time", arguments: #"{"timezone":"UTC"}"#),
            config: try Self.timeConfig(), arguments: ["--yes", "what time is it in UTC?"],
            then: { openresponses in
                after = [try await openresponses(["inspect", "show", "1"])]
                after.append(try await openresponses(["inspect", "show", "1", "--json"]))
                let shown = try JSONSerialization.jsonObject(with: Data(after[1].stdout.utf8)) as? [String: Any]
                after.append(try await openresponses(["history", "export", shown?["session"] as? String ?? "?"]))
            })
        #expect(result.status == 0, "\(result.stderr)")
        // The server's own tool, offered under its collision-free name with its schema passed through.
        let tools = try #require(requests.first?.jsonBody?["tools"] as? [[String: Any]])
        let offered = try #require(tools.first { $0["name"] as? String == "time__get_current_time" })
        let properties = (offered["parameters"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(properties?["timezone"] != nil)
        #expect(tools.contains { $0["name"] as? String == "time__convert_time" })
        // Its answer went back as the call's output, and the model's answer is printed.
        #expect(result.stdout.hasPrefix("tool said: {"), "\(result.stdout)")
        #expect(result.stdout.contains(#""timezone": "UTC""#) || result.stdout.contains(#""timezone":"UTC""#))
        #expect(result.stderr.contains("[time get_current_time → {"), "\(result.stderr)")
        #expect(requests.count == 2)
        // The call is kept with the exchange whose response asked for it, and in the conversation's export.
        #expect(
            after[0].stdout.contains("MCP calls (1)\n  time get_current_time({\"timezone\":\"UTC\"})  completed in "))
        #expect(after[0].stdout.contains("[call_1]"), "\(after[0].stdout)")
        let shown = try JSONSerialization.jsonObject(with: Data(after[1].stdout.utf8)) as? [String: Any]
        let kept = try #require((shown?["tool_calls"] as? [[String: Any]])?.first, "\(after[1].stdout)")
        #expect(kept["server"] as? String == "time" && kept["status"] as? String == "completed")
        #expect((kept["result"] as? String)?.contains("UTC") == true)
        #expect(
            after[2].stdout.contains("— MCP server time, tool get_current_time: completed in "), "\(after[2].stdout)")
    }

    @Test func withoutYesAndNoTerminalTheCallIsDeclinedAndTheModelIsTold() async throws {
        let (result, requests) = try await run(
            MCPServers.callingRoute("time__get_current_time", arguments: #"{"timezone":"UTC"}"#),
            config: try Self.timeConfig(), arguments: ["what time is it?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("[time get_current_time: not run]"), "\(result.stderr)")
        #expect(result.stdout == "tool said: the user declined to run get_current_time of time\n")
        #expect(requests.count == 2)
    }

    @Test func aTrustedServersToolRunsWithoutAsking() async throws {
        let (result, _) = try await run(
            MCPServers.callingRoute("time__get_current_time", arguments: #"{"timezone":"Europe/Berlin"}"#),
            config: try Self.timeConfig(trusted: true), arguments: ["what time is it in Berlin?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Europe/Berlin"), "\(result.stdout)")
    }

    @Test func theGitServerReadsAThrowawayRepository() async throws {
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: repository) }
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        let git = ["-C", repository.path, "-c", "user.name=T", "-c", "user.email=t@example.invalid"]
        _ = try await Subprocess.run("/usr/bin/git", ["init", "-q", repository.path], environment: [:])
        try "hello\n".write(to: repository.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        _ = try await Subprocess.run("/usr/bin/git", git + ["add", "a.txt"], environment: [:])
        _ = try await Subprocess.run(
            "/usr/bin/git", git + ["commit", "-q", "-m", "First commit of the throwaway"], environment: [:])
        let config = """
            mcp_servers:
              git:
                command: [\(try MCPServers.program("mcp-server-git")), --repository, \(repository.path)]
                tools: {git_log: {trusted: true}}
            mcp: [git]
            """
        let (result, _) = try await run(
            MCPServers.callingRoute("git__git_log", arguments: #"{"repo_path":"\#(repository.path)","max_count":5}"#),
            config: config, arguments: ["what was committed?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("First commit of the throwaway"), "\(result.stdout)")
    }
}
