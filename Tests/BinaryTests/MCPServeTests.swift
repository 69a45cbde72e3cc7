import Foundation
import TestSupport
import Testing

/// `openresponses mcp serve` driven by the official Python MCP client (`mcp` from PyPI, nobody here wrote it):
/// initialise, list the tools, search a library holding a PDF and get the page-exact passage, read a document
/// as a resource.
@Suite(
    "mcp serve with the official Python client (binary)",
    .enabled(if: MCPServers.isAvailable, "the MCP SDK is not installed (scripts/mcp-servers.sh)"))
struct MCPServeTests {
    /// The client: connects to `openresponses mcp serve ARGS`, runs `calls` (tool name → arguments), and prints
    /// what it saw as one JSON object.
    static let client = """
        import asyncio, json, sys
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client
        async def main():
            binary, env, serve_args, calls = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
            params = StdioServerParameters(command=binary, args=["mcp", "serve"] + serve_args, env=env)
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    init = await session.initialize()
                    tools = await session.list_tools()
                    results = {}
                    for name, arguments in calls:
                        result = await session.call_tool(name, arguments)
                        results[name] = {"text": result.content[0].text, "error": bool(result.is_error)}
                    resources = await session.list_resources()
                    texts = [(await session.read_resource(r.uri)).contents[0].text for r in resources.resources]
                    print(json.dumps({
                        "server": init.server_info.name, "tools": [t.name for t in tools.tools], "results": results,
                        "resources": [str(r.uri) for r in resources.resources], "texts": texts}))
        asyncio.run(main())
        """

    func serve(_ serveArguments: [String] = [], calls: [(String, String)]) async throws -> [String: Any] {
        let server = try await LoopbackServer.start(route: { _ in .json("{}") })
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let pdf = harness.home.appendingPathComponent("animals.pdf")
        try PDFWriter.text(pages: [
            ["Page one is about otters and the rivers they live in."],
            ["Page two is about beavers and the dams they build across streams."],
            ["Page three is about herons."],
        ]).write(to: pdf)
        let added = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["library", "add", pdf.path], environment: harness.variables)
        #expect(added.status == 0, "\(added.stderr)")
        let environment = String(decoding: try JSONSerialization.data(withJSONObject: harness.variables), as: UTF8.self)
        let callList = "[" + calls.map { "[\"\($0.0)\", \($0.1)]" }.joined(separator: ",") + "]"
        let arguments = String(decoding: try JSONSerialization.data(withJSONObject: serveArguments), as: UTF8.self)
        let result = try await Subprocess.run(
            try MCPServers.program("python"),
            ["-c", Self.client, Subprocess.openresponsesBinary, environment, arguments, callList],
            environment: ["PATH": "/usr/bin:/bin", "HOME": harness.home.path])
        await server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], "\(result.stdout)")
    }

    @Test func aSearchFindsThePageExactPassageOfAPDF() async throws {
        let seen = try await serve(calls: [("library_search", #"{"query": "beavers dams", "k": 2}"#)])
        #expect(seen["server"] as? String == "openresponses")
        let tools = try #require(seen["tools"] as? [String])
        #expect(Set(["library_search", "library_ask", "library_list"]).isSubset(of: Set(tools)))
        #expect(!tools.contains("library_add"), "nothing that writes without --allow-write")
        let results = try #require(seen["results"] as? [String: [String: Any]])
        let search = try #require(results["library_search"])
        #expect(search["error"] as? Bool == false)
        let reply =
            try JSONSerialization.jsonObject(with: Data((search["text"] as? String ?? "").utf8)) as? [String: Any]
        let first = try #require((reply?["passages"] as? [[String: Any]])?.first, "\(search)")
        #expect(first["page"] as? Int == 2)
        #expect((first["path"] as? String)?.hasSuffix("animals.pdf") == true)
        #expect((first["text"] as? String)?.contains("beavers and the dams") == true)
        let texts = try #require(seen["texts"] as? [String])
        #expect(texts.count == 1 && texts[0].contains("herons"))
    }

    @Test func askAnswersWithCitationsAndWrongArgumentsAreNamed() async throws {
        let seen = try await serve(calls: [
            ("library_ask", #"{"question": "What do beavers build?"}"#), ("library_search", #"{"query": ""}"#),
            ("library_add", #"{"paths": ["/etc"]}"#),
        ])
        let results = try #require(seen["results"] as? [String: [String: Any]])
        let answer = try #require(results["library_ask"]?["text"] as? String)
        #expect(answer.contains("beavers and the dams they build") && answer.contains("[1]"), "\(answer)")
        #expect(answer.contains("animals.pdf") && answer.contains("p. 2"), "\(answer)")
        #expect(results["library_search"]?["error"] as? Bool == true)
        #expect(results["library_search"]?["text"] as? String == "query: a non-empty string is required")
        #expect(results["library_add"]?["error"] as? Bool == true)
        #expect(results["library_add"]?["text"] as? String == "no tool named library_add")
    }
}
