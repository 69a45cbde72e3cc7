import ArgumentParser
import Console
import Foundation

/// `openresponses mcp list|tools|call|serve`.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Local MCP servers (mcp_servers: in config.yaml or a preset), and the library served over MCP.",
        subcommands: [List.self, Tools.self, Call.self, Serve.self])

    /// The preset whose servers count too (else the config file's preset).
    struct PresetOption: ParsableArguments {
        @Option(name: .long, help: "Count this preset's mcp_servers: too.") var preset: String?
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Each declared server: on or off, how it is reached, where it is declared.")
        @OptionGroup var presets: PresetOption
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let runner = MCPRunner(CommandIO(environment: processEnvironment))
            try finish(
                try blocking { [presets, printing] in await runner.list(preset: presets.preset, json: printing.json) })
        }
    }

    struct Tools: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tools", abstract: "Start a server and list its tools, by the names the model sees.")
        @Argument(help: "The server's name.") var server: String
        @OptionGroup var presets: PresetOption
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let runner = MCPRunner(CommandIO(environment: processEnvironment))
            try finish(
                try blocking { [server, presets, printing] in
                    await runner.tools(of: server, preset: presets.preset, json: printing.json)
                })
        }
    }

    struct Call: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "call", abstract: "Run one tool of a server with JSON arguments, and print what it returns.")
        @Argument(help: "The server's name.") var server: String
        @Argument(help: "The tool's own name (as the server calls it).") var tool: String
        @Argument(help: "The arguments, a JSON object.") var arguments: String = "{}"
        @OptionGroup var presets: PresetOption
        @OptionGroup var printing: OutputOptions
        func run() throws {
            let runner = MCPRunner(CommandIO(environment: processEnvironment))
            try finish(
                try blocking { [server, tool, arguments, presets, printing] in
                    await runner.call(
                        server: server, tool: tool, arguments: arguments, preset: presets.preset, json: printing.json)
                })
        }
    }

    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the library (and, read-only, the inspector) over MCP on stdin and stdout.")
        @Flag(name: .long, help: "Offer library_add, which adds files to the library.") var allowWrite = false
        func run() throws {
            let runner = MCPRunner(CommandIO(environment: processEnvironment))
            let version = OpenResponses.configuration.version
            try finish(try blocking { [allowWrite] in await runner.serve(allowWrite: allowWrite, version: version) })
        }
    }
}
