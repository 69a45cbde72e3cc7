import Foundation
import Workbench

extension ConsoleCommand {
    /// What the server keeps and answers: the ledger, background jobs, copies and exports of answers, usage
    /// and cost, log probabilities, the payload, streaming.
    static let answerCommands: [ConsoleCommand] = [
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
    ]
}
