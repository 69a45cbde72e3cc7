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
            action: { repl, input in repl.ledgerCommand(input.words) }),
        ConsoleCommand(
            name: "/jobs",
            help: [("/jobs [--all]", "background responses started here: status now, age, model, first words")],
            complete: firstWord(["--all"]),
            action: { repl, input in repl.jobsCommand(input.words) }),
        ConsoleCommand(
            name: "/bg",
            help: [
                (
                    "/bg on|off",
                    "create the next responses in the background (Ctrl-C then detaches instead of cancelling)"
                )
            ],
            complete: firstWord(["on", "off"]),
            action: { repl, input in repl.backgroundCommand(input.words) }),
        ConsoleCommand(
            name: "/copy",
            help: [
                (
                    "/copy [code [N]]",
                    "copy the last answer, or its Nth code block, to the clipboard (OSC 52: works in tmux and over SSH)"
                )
            ],
            complete: firstWord(["code"]),
            action: { repl, input in repl.copyCommand(input.words) }),
        ConsoleCommand(
            name: "/save",
            help: [("/save PATH | /save code [N] PATH", "write the last answer, or its Nth code block, to a file")],
            complete: firstWord(["code"]),
            action: { repl, input in repl.saveCommand(input.words) }),
        ConsoleCommand(
            name: "/export",
            help: [
                (
                    "/export PATH [--format md|json]",
                    "this conversation as Markdown (turns, tool calls, citations, usage) or JSON (the items sent and received)"
                )
            ],
            action: { repl, input in repl.exportCommand(input.words) }),
        ConsoleCommand(
            name: "/markdown",
            help: [
                (
                    "/markdown on|off",
                    "render answers' Markdown (headings, lists, tables, highlighted code), or show the raw text (console.markdown)"
                )
            ],
            complete: firstWord(["on", "off"]),
            action: { repl, input in repl.markdownCommand(input.words) }),
        ConsoleCommand(
            name: "/cancel",
            help: [("/cancel [ID]", "cancel on the server the background response Ctrl-C detached from, or ID")],
            action: { repl, input in repl.cancelJobCommand(input.words) }),
        ConsoleCommand(
            name: "/attach-job",
            help: [
                (
                    "/attach-job ID",
                    "follow a background response from the last event shown (Ctrl-C detaches), or show its answer"
                )
            ],
            action: { repl, input in repl.attachJobCommand(input.words) }),
        ConsoleCommand(
            name: "/compact",
            help: [
                (
                    "/compact",
                    "compact the conversation on the server (POST /responses/compact) and go on from the compacted items"
                )
            ],
            action: { repl, _ in repl.compactCommand() }),
        ConsoleCommand(
            name: "/cost",
            help: [
                (
                    "/cost [TEXT]",
                    "the next request's input tokens (counted by the server; nothing is sent to the model) and their estimated cost"
                )
            ],
            action: { repl, input in repl.costCommand(input.rest) }),
        ConsoleCommand(
            name: "/usage", help: [("/usage", "this session's tokens and estimated cost, by model")],
            action: { repl, _ in repl.usageCommand() }),
        ConsoleCommand(
            name: "/logprobs",
            help: [
                (
                    "/logprobs [N]",
                    "the last answer's first N tokens (default 50) with their probabilities and the alternatives (top_logprobs)"
                )
            ],
            action: { repl, input in repl.logprobsCommand(input.rest) }),
        ConsoleCommand(
            name: "/payload",
            help: [("/payload [TEXT]", "show the exact JSON of the next request (with TEXT as the message)")],
            action: { repl, input in repl.payloadCommand(input.rest) }),
        ConsoleCommand(
            name: "/stream", help: [("/stream on|off", "stream answers, or ask for whole ones")],
            complete: firstWord(["on", "off"]),
            action: { repl, input in repl.streamCommand(input.rest) }),
    ]
}
