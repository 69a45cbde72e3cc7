import Foundation

/// The real MCP programs the MCP tests use, none written here, in the virtual environment
/// `scripts/mcp-servers.sh` makes: the reference servers `mcp-server-time` and `mcp-server-git`, and the official
/// Python MCP SDK (`mcp`), whose client drives `openresponses mcp serve`. `scripts/test.sh` installs them and
/// sets `OPENRESPONSES_REQUIRE_MCP=1`, so there a missing one fails the tests instead of skipping them.
public enum MCPServers {
    /// The environment's bin folder, where `OPENRESPONSES_MCP_SERVERS_TIME` (mcp-server-time's path) says, or the
    /// script's default place.
    public static var bin: String? {
        PythonSDK.cachedProgram(variable: "OPENRESPONSES_MCP_SERVERS_TIME", cached: "mcp-servers/bin/mcp-server-time")
            .map { String($0.dropLast("/mcp-server-time".count)) }
    }

    public static var isAvailable: Bool {
        bin != nil || ProcessInfo.processInfo.environment["OPENRESPONSES_REQUIRE_MCP"] == "1"
    }

    /// The path of program `name` in the environment; throws when it is not installed.
    public static func program(_ name: String) throws -> String {
        guard let bin else { throw SubprocessError("the MCP servers are not installed: run scripts/mcp-servers.sh") }
        return bin + "/" + name
    }

    /// Writes `config.yaml` (`version: 1`, then `yaml`: an `mcp_servers:` block and more) into the console's data
    /// directory.
    public static func writeConfig(_ yaml: String, in harness: ConsoleHarness) throws {
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        try ("version: 1\n" + yaml).write(
            to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }
}

extension Fixtures {
    /// A streamed response that ends in one function call `name(arguments)`.
    public static func functionCallStream(id: String, name: String, callID: String, arguments: String) -> [String] {
        func quote(_ string: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [string], options: [.withoutEscapingSlashes])
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        }
        let item =
            #"{"id":"fc_\#(callID)","type":"function_call","status":"completed","name":\#(quote(name)),"call_id":\#(quote(callID)),"arguments":\#(quote(arguments))}"#
        func response(_ status: String, _ output: String) -> String {
            #"{"id":\#(quote(id)),"object":"response","created_at":1795270000,"status":"\#(status)","model":"test-model","output":\#(output),"usage":\#(status == "completed" ? #"{"input_tokens":50,"output_tokens":10,"total_tokens":60}"# : "null")}"#
        }
        let events = [
            ("response.created", #""response":\#(response("in_progress", "[]"))"#),
            ("response.output_item.added", #""output_index":0,"item":\#(item)"#),
            ("response.output_item.done", #""output_index":0,"item":\#(item)"#),
            ("response.completed", #""response":\#(response("completed", "[" + item + "]"))"#),
        ]
        return events.enumerated().map { index, event in
            "event: \(event.0)\ndata: {\"type\":\"\(event.0)\",\"sequence_number\":\(index),\(event.1)}\n\n"
        }
    }
}
