import Foundation
import MCPClient
import Synchronization
import Workbench

/// The console's local MCP servers: the ones declared for the preset in use (`MCPToolbox.declared`), made the
/// session's tool source; `/mcp` lists them and turns them on and off. Changing the preset declares them anew
/// (the old ones are stopped); leaving the console stops them.
extension REPL {
    /// Declares the servers for the preset in use, stopping the ones declared before. A wrong declaration is
    /// said, and the console goes on without local MCP servers.
    func loadMCP() {
        if let previous = mcp { _ = bridge.run { await previous.shutdown() } }
        mcp = nil
        do {
            mcp = try MCPToolbox.declared(environment: context.environment, preset: stack.preset)
        } catch {
            context.diagnostics.write("error: \(error.userMessage)\nnote: no local MCP server is used\n")
        }
        session.toolSource = mcp
        mcpServerNames.set(mcp?.servers.map(\.name) ?? [])
    }

    /// Stops every server the console started.
    func stopMCP() {
        guard let mcp else { return }
        _ = bridge.run { await mcp.shutdown() }
    }

    /// `/mcp`, `/mcp on|off|tools|restart NAME`.
    func mcpCommand(_ words: [String]) {
        guard let mcp else {
            context.diagnostics.write(
                "No local MCP server is declared: add mcp_servers: to \(ConfigFile.url(environment: context.environment).path) "
                    + "or the preset (Docs/mcp.md).\n")
            return
        }
        let (lines, problem) = bridge.run { () async -> ([String], String?) in
            do throws(MCPServerError) {
                return (try await Self.mcpLines(words, toolbox: mcp), nil)
            } catch {
                return ([], error.userMessage)
            }
        }.value
        for line in lines { context.output.write(line + "\n") }
        if let problem { context.diagnostics.write("error: \(problem)\n") }
    }

    static func mcpLines(_ words: [String], toolbox: MCPToolbox) async throws(MCPServerError) -> [String] {
        switch (words.first, words.count) {
        case (nil, _):
            return await toolbox.status().map(statusLine)
        case ("on", 2), ("off", 2):
            try await toolbox.set(words[1], enabled: words[0] == "on")
            return ["MCP server \(words[1]) is \(words[0]) for the next turns."]
        case ("tools", 2):
            let trust = toolbox.servers.first { $0.name == words[1] }
            return try await toolbox.tools(of: words[1]).map { entry in
                let summary = (entry.tool.description ?? "").split(separator: "\n").first.map(String.init) ?? ""
                return "\(entry.name)\(trust?.isTrusted(entry.tool.name) == true ? " (trusted)" : "")  \(summary)"
            }
        case ("restart", 2):
            try await toolbox.restart(words[1])
            return ["MCP server \(words[1]) was stopped; it starts again on the next turn that needs it."]
        default:
            throw MCPServerError(.unknown, server: "", "usage: /mcp [on|off|tools|restart NAME]")
        }
    }

    static func statusLine(_ status: MCPToolbox.ServerStatus) -> String {
        let state =
            switch status.state {
            case .notStarted: "not started"
            case .running(let tools):
                "running, \(tools) tools"
                    + (status.startDuration.map { ", started in \(ConsoleSessionDelegate.seconds($0))" } ?? "")
            case .failed(let message, let willRestart):
                "failed (\(message))"
                    + (willRestart ? "; starts again on next use" : "; /mcp restart \(status.config.name)")
            }
        return "\(status.enabled ? "on " : "off") \(status.config.name)  \(state)"
    }
}

/// The declared servers' names, for Tab (read on readline's thread, set on the console's).
final class MCPServerNames: Sendable {
    private let names = Mutex<[String]>([])

    func set(_ list: [String]) { names.withLock { $0 = list } }

    var list: [String] { names.withLock { $0 } }
}
