import Foundation
import Workbench

extension ConsoleCommand {
    /// Every slash command, in the order `/help` lists them.
    static let all: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/preset", aliases: ["/presets"],
            help: [
                ("/preset list", "list presets (* marks the one in use)"),
                ("/preset use NAME", "switch to a preset (your /set values stay on top)"),
                ("/preset show [NAME]", "show a preset file (the one in use by default)"),
                ("/preset save NAME", "save the current settings as a preset in your data directory"),
                ("/preset diff A B", "show how two presets differ"),
            ],
            complete: { position, words, sources in
                switch position {
                case 0: ["list", "use", "show", "save", "diff"]
                case 1 where ["use", "show", "diff"].contains(words[0]): sources.presetNames()
                case 2 where words[0] == "diff": sources.presetNames()
                default: []
                }
            },
            run: { repl, input in
                repl.presetCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/set", help: [("/set KEY VALUE", "change a setting for the following turns (/settings lists them)")],
            complete: { position, words, _ in
                switch position {
                case 0: Completer.settingKeys
                case 1: Completer.values(for: words[0])
                default: []
                }
            },
            run: { repl, input in
                repl.setCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/unset", help: [("/unset KEY", "do not send KEY from now on")],
            complete: { position, _, _ in position == 0 ? Completer.settingKeys : [] },
            run: { repl, input in
                repl.unsetCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/reset",
            help: [
                (
                    "/reset [KEY]",
                    "drop your /set and /unset (of KEY, or all): back to the flags' or the preset's values"
                )
            ],
            complete: { position, _, _ in position == 0 ? Completer.settingKeys : [] },
            run: { repl, input in
                repl.resetCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/settings", help: [("/settings", "show every setting in effect and where it comes from")],
            run: { repl, _ in
                repl.settingsCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/ledger",
            help: [
                (
                    "/ledger [list [TYPE] | verify | gc AGE [--dry-run]]",
                    "objects recorded exchanges left on this server: list, check, delete old ones (asks first)"
                )
            ],
            complete: { position, _, _ in position == 0 ? ["list", "verify", "gc"] : [] },
            run: { repl, input in
                repl.ledgerCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/jobs",
            help: [("/jobs [--all]", "background responses started here: status now, age, model, first words")],
            complete: firstWord(["--all"]),
            run: { repl, input in
                repl.jobsCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/bg",
            help: [
                (
                    "/bg on|off",
                    "create the next responses in the background (Ctrl-C then detaches instead of cancelling)"
                )
            ],
            complete: firstWord(["on", "off"]),
            run: { repl, input in
                repl.backgroundCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/copy",
            help: [
                (
                    "/copy [code [N]]",
                    "copy the last answer, or its Nth code block, to the clipboard (OSC 52: works in tmux and over SSH)"
                )
            ],
            complete: firstWord(["code"]),
            run: { repl, input in
                repl.copyCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/save",
            help: [("/save PATH | /save code [N] PATH", "write the last answer, or its Nth code block, to a file")],
            complete: firstWord(["code"]),
            run: { repl, input in
                repl.saveCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/export",
            help: [
                (
                    "/export PATH [--format md|json]",
                    "this conversation as Markdown (turns, tool calls, citations, usage) or JSON (the items sent and received)"
                )
            ],
            run: { repl, input in
                repl.exportCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/markdown",
            help: [
                (
                    "/markdown on|off",
                    "render answers' Markdown (headings, lists, tables, highlighted code), or show the raw text (console.markdown)"
                )
            ],
            complete: firstWord(["on", "off"]),
            run: { repl, input in
                repl.markdownCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/cancel",
            help: [("/cancel [ID]", "cancel on the server the background response Ctrl-C detached from, or ID")],
            run: { repl, input in
                repl.cancelJobCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/attach-job",
            help: [
                (
                    "/attach-job ID",
                    "follow a background response from the last event shown (Ctrl-C detaches), or show its answer"
                )
            ],
            run: { repl, input in
                repl.attachJobCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/compact",
            help: [
                (
                    "/compact",
                    "compact the conversation on the server (POST /responses/compact) and go on from the compacted items"
                )
            ],
            run: { repl, _ in
                repl.compactCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/cost",
            help: [
                (
                    "/cost [TEXT]",
                    "the next request's input tokens (counted by the server; nothing is sent to the model) and their estimated cost"
                )
            ],
            run: { repl, input in
                repl.costCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/usage", help: [("/usage", "this session's tokens and estimated cost, by model")],
            run: { repl, _ in
                repl.usageCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/logprobs",
            help: [
                (
                    "/logprobs [N]",
                    "the last answer's first N tokens (default 50) with their probabilities and the alternatives (top_logprobs)"
                )
            ],
            run: { repl, input in
                repl.logprobsCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/payload",
            help: [("/payload [TEXT]", "show the exact JSON of the next request (with TEXT as the message)")],
            run: { repl, input in
                repl.payloadCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/stream", help: [("/stream on|off", "stream answers, or ask for whole ones")],
            complete: firstWord(["on", "off"]),
            run: { repl, input in
                repl.streamCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/attach",
            help: [("/attach PATH...", "attach files to the next message (images, PDFs, text); alone: list them")],
            run: { repl, input in
                repl.attachCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/detach", help: [("/detach", "drop the attachments")],
            run: { repl, _ in
                repl.detachCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/edit", help: [("/edit", "write the next message in $EDITOR")],
            run: { repl, _ in
                repl.editCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/mode",
            help: [
                (
                    "/mode stored|stateless",
                    "chain with previous_response_id, or send the whole history with store: false"
                )
            ],
            complete: firstWord(["stored", "stateless"]),
            run: { repl, input in
                repl.modeCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/conversation",
            help: [("/conversation new|use ID", "keep the turns in a Conversations API conversation")],
            complete: firstWord(["new", "use"]),
            run: { repl, input in
                repl.conversationCommand(input.words)
                return .continue
            }),
        ConsoleCommand(
            name: "/retry", help: [("/retry", "send the last message again")],
            run: { repl, _ in
                repl.retryCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/history", help: [("/history [PAGE]", "past conversations in the inspector")],
            run: { repl, input in
                repl.historyCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/resume", help: [("/resume ID", "continue a past conversation (an id from /history)")],
            run: { repl, input in
                repl.resumeCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/files",
            help: [("/files upload|list|show|download|delete ...", "manage files (as `openresponses files`)")],
            complete: firstWord(subcommandNames(of: FilesCommand.self)),
            run: { repl, input in
                repl.filesCommand(REPL.words(input.rest), root: FilesCommand.self)
                return .continue
            }),
        ConsoleCommand(
            name: "/stores",
            help: [
                ("/stores create|list|show|update|delete|files|add|remove|search ...", "manage vector stores"),
                ("/stores use ID[,ID...]|none", "turn file_search on with those stores (or off); /stores shows them"),
            ],
            complete: { position, words, sources in
                switch position {
                case 0: ["use"] + subcommandNames(of: StoresCommand.self)
                case 1 where ["use", "show", "files", "add", "remove", "search", "delete", "update"].contains(words[0]):
                    sources.storeIDs() + (words[0] == "use" ? ["none"] : [])
                default: []
                }
            },
            run: { repl, input in
                repl.filesCommand(REPL.words(input.rest), root: StoresCommand.self)
                return .continue
            }),
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
            run: { repl, input in
                repl.libraryCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/provider",
            help: [
                (
                    "/provider [NAME]",
                    "the server in use; with a name, switch to one of config.yaml's providers (a new conversation)"
                )
            ],
            complete: { position, _, _ in position == 0 ? REPL.providerNames(environment: .process) : [] },
            run: { repl, input in
                repl.providerCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/doc",
            help: [
                ("/doc PATH|off", "add a document if needed and ask about it in the following turns; alone: the scope")
            ],
            run: { repl, input in
                repl.docCommand(input.rest)
                return .continue
            }),
        ConsoleCommand(
            name: "/sources",
            help: [("/sources", "the full passages behind the last answer, numbered as its footnotes")],
            run: { repl, _ in
                repl.sourcesCommand()
                return .continue
            }),
        ConsoleCommand(
            name: "/new", help: [("/new", "start a new conversation")],
            run: { repl, _ in
                repl.newConversation()
                return .continue
            }),
        ConsoleCommand(
            name: "/inspect",
            help: [("/inspect [last|ID]", "show an exchange from the inspector (the last one by default)")],
            complete: firstWord(["last"]),
            run: { repl, input in
                repl.inspect(input.words.first)
                return .continue
            }),
        ConsoleCommand(
            name: "/help", help: [("/help", "show this help")],
            run: { repl, _ in
                repl.context.output.write(REPL.help)
                return .continue
            }),
        ConsoleCommand(
            name: "/quit", aliases: ["/exit", "/q"],
            help: [("/quit", "leave (Ctrl-D, or Ctrl-C twice at an empty prompt)")],
            run: { _, _ in .quit }),
    ]
}
