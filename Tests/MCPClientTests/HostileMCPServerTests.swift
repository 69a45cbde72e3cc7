import Foundation
import MCPClient
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// The client against a server that attacks it (`MCPServers.hostileServer`, a real process on the protocol):
/// every attack ends in bounded time and memory, with an error or a note that names the server, and nothing of
/// the console's (a key, a descriptor) reaches it.
@Suite(
    "a hostile MCP server",
    .enabled(if: MCPServers.isAvailable, "the MCP servers are not installed (scripts/mcp-servers.sh)"))
struct HostileMCPServerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-hostile-\(UUID().uuidString)")

    func toolbox(_ mode: String, timeout: Duration = .seconds(30), environment: [String: String] = [:])
        throws -> MCPToolbox
    {
        let config = MCPServerConfig(
            name: "h",
            endpoint: .stdio(
                command: try MCPServers.hostileCommand(mode, in: directory), environment: environment, directory: nil),
            trusted: true, timeout: timeout)
        return MCPToolbox(
            servers: [config], enabled: ["h"], baseEnvironment: ["PATH": "/usr/bin:/bin"],
            variables: ["OPENAI_API_KEY": "sk-never-sent"])
    }

    @Test func endlessPagesOfToolsEndAtTheCap() async throws {
        let toolbox = try toolbox("cursorloop")
        let began = ContinuousClock.now
        let tools = try await toolbox.tools(of: "h")
        #expect(tools.isEmpty)
        #expect(ContinuousClock.now - began < .seconds(20))
        await toolbox.shutdown()
    }

    @Test func aThousandToolsOfOneNameAreOneFunction() async throws {
        let toolbox = try toolbox("manytools", environment: ["NAME": "x", "N": "1000"])
        let (tools, notes) = await toolbox.offeredTools()
        #expect(tools.count == 1)
        #expect(tools.first?["name"] == "h__x")
        #expect(notes.count == 1 && notes[0].hasPrefix("MCP server h: left out x: a second tool of that name"))
        #expect(await toolbox.offeredTools().notes.isEmpty, "said once")
        await toolbox.shutdown()
    }

    @Test func toolsPastTheCapAreLeftOutWithANote() async throws {
        let toolbox = try toolbox("manytools", environment: ["NAME": "", "N": "300"])
        let (tools, notes) = await toolbox.offeredTools()
        #expect(tools.count == 128)
        #expect(notes.first?.contains("left out 172 more tools past the first 128") == true, "\(notes)")
        await toolbox.shutdown()
    }

    @Test func aToolWithABadSchemaIsLeftOutWithANote() async throws {
        let bad = try toolbox("badschema")
        let (tools, notes) = await bad.offeredTools()
        #expect(tools.map { $0["name"] } == ["h__t"])
        #expect(notes.first?.contains("s: its input schema is not a JSON object") == true, "\(notes)")
        await bad.shutdown()
    }

    @Test func aHugeDescriptionIsCutByBytes() async throws {
        let toolbox = try toolbox("bigdesc")
        let (tools, _) = await toolbox.offeredTools()
        let description = try #require(tools.first?["description"]?.stringValue)
        #expect(description.utf8.count < 4200)
        await toolbox.shutdown()
    }

    @Test func aFloodOfMessagesStopsTheServerInsteadOfFillingMemory() async throws {
        let toolbox = try toolbox("flood", timeout: .seconds(10))
        let error = await #expect(throws: MCPServerError.self) {
            try await toolbox.call(server: "h", tool: "t", arguments: "{}")
        }
        // Stopped at the cap, or (on a machine slow enough that the client keeps up) at the call's timeout:
        // either way within bounds, never buffering without end.
        #expect(error?.kind == .protocolViolation || error?.kind == .timeout, "\(String(describing: error))")
        await toolbox.shutdown()
    }

    @Test func aServerThatExitsLeavingAHelperIsSeenAtOnce() async throws {
        let toolbox = try toolbox("forkexit")
        let began = ContinuousClock.now
        let error = await #expect(throws: MCPServerError.self) {
            try await toolbox.call(server: "h", tool: "t", arguments: "{}")
        }
        #expect(error?.message == "the MCP server h exited with status 1", "\(String(describing: error))")
        #expect(ContinuousClock.now - began < .seconds(15), "not only at the 30 s timeout")
        await toolbox.shutdown()
    }

    @Test func anInterruptedCallToAHungServerEndsAtOnce() async throws {
        let toolbox = try toolbox("hang")
        _ = try await toolbox.tools(of: "h")
        let call = Task { try await toolbox.call(server: "h", tool: "t", arguments: "{}") }
        try await Task.sleep(for: .milliseconds(300))
        let began = ContinuousClock.now
        call.cancel()
        let result = await call.result
        #expect(ContinuousClock.now - began < .seconds(10))
        #expect(throws: MCPServerError.self) { try result.get() }
        await toolbox.shutdown()
    }

    @Test func theServerGetsNoKeyAndNoDescriptorOfTheConsole() async throws {
        let toolbox = try toolbox("envdump")
        let outcome = try await toolbox.call(server: "h", tool: "t", arguments: "{}")
        let dump = try JSONValue.parse(outcome.text)
        #expect(dump["env"]?["OPENAI_API_KEY"] == nil)
        #expect(dump["env"]?["PATH"] == "/usr/bin:/bin")
        let fds = dump["fds"]?.arrayValue?.compactMap(\.intValue) ?? []
        #expect(fds.allSatisfy { $0 <= 3 }, "\(fds)")
        await toolbox.shutdown()
    }

    @Test func aHeaderNamingTheProvidersKeyIsRefused() async throws {
        let config = MCPServerConfig(
            name: "web",
            endpoint: .http(url: "http://127.0.0.1:9/mcp", headers: ["Authorization": "Bearer ${OPENAI_API_KEY}"]))
        let toolbox = MCPToolbox(
            servers: [config], enabled: ["web"], baseEnvironment: [:], variables: ["OPENAI_API_KEY": "sk-x"])
        await #expect(throws: MCPServerError.self) { _ = try await toolbox.tools(of: "web") }
        let notes = await toolbox.offeredTools().notes
        #expect(
            notes.first?.contains("${OPENAI_API_KEY} holds a provider's key, which is not sent to MCP servers") == true,
            "\(notes)")
    }
}
