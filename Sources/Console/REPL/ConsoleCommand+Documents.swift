import Foundation
import Workbench

extension ConsoleCommand {
    /// Files, vector stores, the library and the server they are on: `/files`, `/stores`, `/library`,
    /// `/provider`, `/doc`, `/sources`.
    static let documentCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/files",
            help: [("/files upload|list|show|download|delete ...", "manage files (as `openresponses files`)")],
            complete: { position, _, sources in position == 0 ? sources.subcommands("files") : [] },
            action: { repl, input in repl.filesCommand(REPL.words(input.rest), root: "files") }),
        ConsoleCommand(
            name: "/stores",
            help: [
                ("/stores create|list|show|update|delete|files|add|remove|search ...", "manage vector stores"),
                ("/stores use ID[,ID...]|none", "turn file_search on with those stores (or off); /stores shows them"),
            ],
            complete: { position, words, sources in
                switch position {
                case 0: ["use"] + sources.subcommands("stores")
                case 1 where ["use", "show", "files", "add", "remove", "search", "delete", "update"].contains(words[0]):
                    sources.storeIDs() + (words[0] == "use" ? ["none"] : [])
                default: []
                }
            },
            action: { repl, input in repl.filesCommand(REPL.words(input.rest), root: "stores") }),
        ConsoleCommand(
            name: "/library",
            help: [
                (
                    "/library on|off|offline",
                    "answer from your documents: passages sent to the model, or no model at all"
                ),
                (
                    "/library compare [--store ID] QUERY",
                    "keyword, semantic and hybrid rankings (and a vector store's) side by side"
                ),
            ],
            complete: firstWord(["on", "off", "offline", "compare"]),
            action: { repl, input in repl.libraryCommand(input.rest) }),
        ConsoleCommand(
            name: "/provider",
            help: [
                (
                    "/provider [NAME]",
                    "the server in use; with a name, switch to one of config.yaml's providers (a new conversation)"
                )
            ],
            complete: { position, _, _ in position == 0 ? REPL.providerNames(environment: .process) : [] },
            action: { repl, input in repl.providerCommand(input.rest) }),
        ConsoleCommand(
            name: "/mcp",
            help: [
                (
                    "/mcp",
                    "the local MCP servers (mcp_servers: in config.yaml or the preset): on or off, running, tools"
                ),
                (
                    "/mcp on|off|tools|restart NAME",
                    "offer a server's tools to the model or not; list them; start it anew"
                ),
            ],
            complete: { position, _, sources in
                switch position {
                case 0: ["on", "off", "tools", "restart"]
                case 1: sources.mcpServers()
                default: []
                }
            },
            action: { repl, input in repl.mcpCommand(input.words) }),
        ConsoleCommand(
            name: "/doc",
            help: [
                ("/doc PATH|off", "add a document if needed and ask about it in the following turns; alone: the scope")
            ],
            action: { repl, input in repl.docCommand(input.rest) }),
        ConsoleCommand(
            name: "/sources",
            help: [("/sources", "the full passages behind the last answer, numbered as its footnotes")],
            action: { repl, _ in repl.sourcesCommand() }),
        ConsoleCommand(
            name: "/verify",
            help: [
                (
                    "/verify [--verbose]",
                    "check each sentence of the last answer against the passages it cites; --verbose lists them all"
                )
            ],
            complete: { position, _, _ in position == 0 ? ["--verbose"] : [] },
            action: { repl, input in repl.verifyCommand(input.words) }),
    ]
}
