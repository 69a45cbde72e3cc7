import Foundation
import ResponsesAPI
import Spawning
import TestSupport
import Testing

/// The built binary against an MCP server that attacks it (`MCPServers.hostileServer`, a real process speaking
/// the protocol by hand): every attack ends in bounded time and memory, with an error or a note that names the
/// server, and nothing of the console's (a key, a descriptor) reaches it. In a process of its own, as a user
/// runs it: the test process's thread pool, busy with every other suite, is not the console's.
@Suite(
    "a hostile MCP server (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct MCPHostileServerTests {
    /// Runs `arguments` with server `h` declared in `mode` (and its `env`), against a loopback model that
    /// answers "ok"; returns the result, the requests the model saw and how long it took.
    func run(
        _ mode: String, _ arguments: [String], env: [String: String] = [:], timeout: Int = 120
    ) async throws -> (result: Subprocess.Result, requests: [ReceivedRequest], took: Duration) {
        let server = try await LoopbackServer.start(route: { _ in .sse(Fixtures.textStream(id: "resp_1", text: "ok")) })
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let command = try MCPServers.hostileCommand(mode, in: harness.home)
        let environment = env.map { "\($0.key): \"\($0.value)\"" }.joined(separator: ", ")
        try MCPServers.writeConfig(
            """
            mcp_servers:
              h: {command: [\(command.joined(separator: ", "))], env: {\(environment)}, trusted: true, timeout: \(timeout)}
            mcp: [h]
            """, in: harness)
        let began = ContinuousClock.now
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, arguments, environment: harness.variables, stdin: "")
        let took = ContinuousClock.now - began
        await server.stop()
        return (result, server.requests, took)
    }

    /// The function tools the first request offered.
    func offered(_ requests: [ReceivedRequest]) -> [[String: Any]] {
        requests.first?.jsonBody?["tools"] as? [[String: Any]] ?? []
    }

    @Test func endlessPagesOfToolsEndAtTheCap() async throws {
        let (result, _, took) = try await run("cursorloop", ["mcp", "tools", "h"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(took < .seconds(90), "bounded by the page cap, not by the start's deadline")
    }

    @Test func aThousandToolsOfOneNameAreOneFunction() async throws {
        let (result, requests, _) = try await run("manytools", ["ask", "hi"], env: ["NAME": "x", "N": "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(offered(requests).map { $0["name"] as? String } == ["h__x"])
        #expect(
            result.stderr.contains("note: MCP server h: left out x: a second tool of that name"), "\(result.stderr)")
    }

    @Test func toolsPastTheCapAreLeftOutWithANote() async throws {
        let (result, requests, _) = try await run("manytools", ["ask", "hi"], env: ["NAME": "", "N": "300"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(offered(requests).count == 128)
        #expect(result.stderr.contains("left out 172 more tools past the first 128"), "\(result.stderr)")
    }

    @Test func aToolWithABadSchemaIsLeftOutAndAHugeDescriptionCut() async throws {
        let (bad, badRequests, _) = try await run("badschema", ["ask", "hi"])
        #expect(bad.status == 0, "\(bad.stderr)")
        #expect(offered(badRequests).map { $0["name"] as? String } == ["h__t"])
        #expect(bad.stderr.contains("s: its input schema is not a JSON object"), "\(bad.stderr)")
        let (big, bigRequests, _) = try await run("bigdesc", ["ask", "hi"])
        #expect(big.status == 0, "\(big.stderr)")
        let description = try #require(offered(bigRequests).first?["description"] as? String)
        #expect(description.utf8.count < 4200)
    }

    @Test func aFloodOfMessagesStopsTheServerInsteadOfFillingMemory() async throws {
        let (result, _, _) = try await run("flood", ["mcp", "call", "h", "t", "{}"], timeout: 10)
        #expect(result.status == 1)
        // Stopped at the cap, or (on a machine slow enough for the client to keep up) at the call's timeout.
        #expect(
            result.stderr.contains("faster than it could be read")
                || result.stderr.contains("did not answer within 10.0 seconds"), "\(result.stderr)")
    }

    @Test func aServerThatExitsLeavingAHelperIsSeenAtOnce() async throws {
        let (result, _, took) = try await run("forkexit", ["mcp", "call", "h", "t", "{}"], timeout: 300)
        #expect(result.status == 1)
        #expect(result.stderr.contains("the MCP server h exited with status 1"), "\(result.stderr)")
        #expect(took < .seconds(120), "not at the 300 s timeout")
    }

    @Test func theServerGetsNoKeyAndNoDescriptorOfTheConsole() async throws {
        let (result, _, _) = try await run("envdump", ["mcp", "call", "h", "t", "{}"])
        #expect(result.status == 0, "\(result.stderr)")
        let dump = try JSONValue.parse(result.stdout)
        #expect(dump["env"]?["OPENAI_API_KEY"] == nil)
        #expect(!result.stdout.contains(consoleTestKey))
        #expect(dump["env"]?["PATH"] == "/usr/bin:/bin")
        let fds = dump["fds"]?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(fds.allSatisfy { $0 <= 3 }, "\(fds)")
    }

    @Test func anImageResultGoesBackAsAnInputImageBesideTheText() async throws {
        let server = try await LoopbackServer.start(
            route: MCPServers.callingRoute("h__t", arguments: "{}"))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let command = try MCPServers.hostileCommand("image", in: harness.home)
        try MCPServers.writeConfig(
            "mcp_servers:\n  h: {command: [\(command.joined(separator: ", "))], trusted: true}\nmcp: [h]\n", in: harness
        )
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["ask", "draw"], environment: harness.variables, stdin: "")
        await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let input = server.requests.last?.jsonBody?["input"] as? [[String: Any]]
        let output = try #require(input?.first?["output"] as? [[String: Any]], "\(String(describing: input))")
        #expect(output.first?["type"] as? String == "input_text")
        #expect((output.first?["text"] as? String)?.hasPrefix("a red dot") == true)
        #expect(output.last?["type"] as? String == "input_image")
        #expect(output.last?["image_url"] as? String == "data:image/png;base64,iVBORw0KGgo=")
    }

    @Test func ctrlCEndsACallToAHungServer() async throws {
        let server = try await LoopbackServer.start(route: { _ in .json("{}") })
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let command = try MCPServers.hostileCommand("hang", in: harness.home)
        try MCPServers.writeConfig(
            "mcp_servers:\n  h: {command: [\(command.joined(separator: ", "))], timeout: 600}\n", in: harness)
        let child = try RunningChild(
            ChildProcess(
                Subprocess.openresponsesBinary, ["mcp", "call", "h", "t", "{}"], environment: harness.variables))
        try await Task.sleep(for: .seconds(3))
        let interrupted = ContinuousClock.now
        kill(child.pid, SIGINT)
        var errors: [UInt8] = []
        for await chunk in child.errors { errors += chunk }
        #expect(await child.stop() == .exited(130), "\(String(decoding: errors, as: UTF8.self))")
        #expect(ContinuousClock.now - interrupted < .seconds(30))
        await server.stop()
    }

    @Test func aHeaderNamingTheProvidersKeyIsRefused() async throws {
        let server = try await LoopbackServer.start(route: { _ in .json("{}") })
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try MCPServers.writeConfig(
            "mcp_servers:\n  web: {url: \"http://127.0.0.1:9/mcp\", headers: {Authorization: \"Bearer ${OPENAI_API_KEY}\"}}\n",
            in: harness)
        let result = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["mcp", "tools", "web"], environment: harness.variables)
        await server.stop()
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("${OPENAI_API_KEY} holds a provider's key, which is not sent to MCP servers"),
            "\(result.stderr)")
    }
}
