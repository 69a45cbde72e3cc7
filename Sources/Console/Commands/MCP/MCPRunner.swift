import Foundation
import MCPClient
import ResponsesAPI
import Untrusted
import Workbench

/// `openresponses mcp list|tools|call` for scripts: the declared local MCP servers (config.yaml's, and a
/// preset's with `--preset`), a server's tools (it is started to list them), and one call run directly, with
/// no model and no approval (the user typed it). `mcp serve` is `MCPRunner+Serve`.
public struct MCPRunner: Sendable, CommandIORunner {
    let io: CommandIO

    public init(_ io: CommandIO) {
        self.io = io
    }

    /// The servers declared for `preset` (nil: the config file's preset, if any).
    func toolbox(preset name: String?) throws -> MCPToolbox {
        let config = try ConfigFile.load(environment: environment)
        let preset = try (name ?? config?.preset).map { try PresetLibrary(environment: environment).load($0) }
        guard let toolbox = try MCPToolbox.declared(environment: environment, preset: preset) else {
            throw ConsoleError(
                "no MCP server is declared: add mcp_servers: to \(ConfigFile.url(environment: environment).path) "
                    + "(Docs/mcp.md)", exitStatus: .usage)
        }
        return toolbox
    }

    /// Runs `body` with the toolbox, every server it started stopped after; errors reported.
    func withToolbox(preset: String?, _ body: (MCPToolbox) async throws -> ExitStatus) async -> ExitStatus {
        let toolbox: MCPToolbox
        do { toolbox = try self.toolbox(preset: preset) } catch { return ErrorReport.write(error, to: diagnostics) }
        return await reporting({ try await body(toolbox) }, cleanup: { await toolbox.shutdown() })
    }

    public func list(preset: String?, json: Bool) async -> ExitStatus {
        await withToolbox(preset: preset) { toolbox in
            let servers = await toolbox.status()
            if json {
                output.write(JSONValue.array(servers.map(Self.json)).prettyPrinted() + "\n")
                return .success
            }
            for server in servers {
                let on = server.enabled ? "on " : "off"
                let trust = server.config.trusted ? ", trusted" : ""
                output.write(
                    "\(on) \(server.config.name)  \(Self.endpoint(server.config))\(trust)  (\(server.config.origin))\n")
            }
            return .success
        }
    }

    public func tools(of server: String, preset: String?, json: Bool) async -> ExitStatus {
        await withToolbox(preset: preset) { toolbox in
            let began = ContinuousClock.now
            let tools = try await toolbox.tools(of: server)
            for note in await toolbox.takeNotes() { diagnostics.write("note: \(note)\n") }
            let config = toolbox.servers.first { $0.name == server }
            if json {
                output.write(
                    JSONValue.array(
                        tools.map { entry in
                            [
                                "function": .string(entry.name), "tool": .string(entry.tool.name),
                                "description": entry.tool.description.map(JSONValue.string) ?? .null,
                                "trusted": .bool(config?.isTrusted(entry.tool.name) ?? false),
                            ]
                        }
                    ).prettyPrinted() + "\n")
            } else {
                for entry in tools {
                    let summary = (entry.tool.description ?? "").split(separator: "\n").first.map(String.init) ?? ""
                    let trusted = config?.isTrusted(entry.tool.name) == true ? " (trusted)" : ""
                    output.write("\(entry.name)\(trusted)  \(summary)\n")
                }
            }
            diagnostics.write(
                "[\(server): \(tools.count) tools, started in \(Self.seconds(ContinuousClock.now - began))]\n")
            return .success
        }
    }

    public func call(server: String, tool: String, arguments: String, preset: String?, json: Bool) async -> ExitStatus {
        await withToolbox(preset: preset) { toolbox in
            let outcome = try await toolbox.call(server: server, tool: tool, arguments: arguments)
            if json {
                output.write(
                    JSONValue.object([
                        "output": outcome.output, "failed": .bool(outcome.failed),
                        "duration_ms": .integer(Int(outcome.duration.wholeMilliseconds)),
                    ]).prettyPrinted() + "\n")
            } else {
                (outcome.failed ? diagnostics : output).write(outcome.text + (outcome.text.hasSuffix("\n") ? "" : "\n"))
            }
            return outcome.failed ? .apiError : .success
        }
    }

    static func endpoint(_ config: MCPServerConfig) -> String {
        switch config.endpoint {
        case .stdio(let command, _, _): command.map(shellWord).joined(separator: " ")
        case .http(let url, _): url
        }
    }

    /// `word` as typed at a shell: bare when it has only characters no shell treats specially, else quoted.
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || "0123456789_./:=@%+,-".unicodeScalars.contains($0))
        }
        return plain && !word.isEmpty ? word : ShellQuoting.quote(word)
    }

    static func json(_ status: MCPToolbox.ServerStatus) -> JSONValue {
        var object: JSONObject = [
            "name": .string(status.config.name), "enabled": .bool(status.enabled),
            "trusted": .bool(status.config.trusted), "origin": .string(status.config.origin),
        ]
        switch status.config.endpoint {
        case .stdio(let command, _, let directory):
            object["command"] = .array(command.map(JSONValue.string))
            object["cwd"] = directory.map(JSONValue.string) ?? .null
        case .http(let url, let headers):
            object["url"] = .string(url)
            object["headers"] = .array(headers.keys.sorted().map(JSONValue.string))
        }
        return .object(object)
    }

    static func seconds(_ duration: Duration) -> String {
        ConsoleSessionDelegate.seconds(duration)
    }
}
