import ArgumentParser
import Console
import Foundation
import Library
import ResponsesAPI
import Workbench

/// `openresponses library ...`: the local document library.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract:
            "Add documents (PDF, DOCX, Markdown, HTML, text, JSON, CSV, images) and search them or ask about them.",
        subcommands: [
            Add.self, Sync.self, Search.self, Ask.self, List.self, Show.self, Remove.self, Reembed.self, Stats.self,
            Push.self, Compare.self, Eval.self,
        ])

    struct Add: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract:
                "Add files, folders (recursively) and globs; unchanged files are skipped, changed ones re-indexed.")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "Files, folders or globs.") var paths: [String]
        @Option(help: "Leave out paths matching this glob (repeatable).") var exclude: [String] = []
        @OptionGroup var chunking: ChunkingOptions
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: chunking.flags) { options in
                await runner.add(paths, excluding: exclude, verbose: chunking.verbose, options: options)
            }
        }
    }

    struct Sync: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Add what is new in a folder, re-index what changed, remove what was deleted from disk.")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "The folder.") var folder: String
        @Option(help: "Leave out paths matching this glob (repeatable).") var exclude: [String] = []
        @OptionGroup var chunking: ChunkingOptions
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: chunking.flags) { options in
                await runner.add(
                    [folder], excluding: exclude, syncing: folder, verbose: chunking.verbose, options: options)
            }
        }
    }

    struct Search: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract:
                "The passages that best match: keywords (BM25) and meaning (vectors) fused; \"quoted phrases\" and prefix* work for keywords."
        )
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "What to look for.") var query: [String]
        @Option(help: "How many passages.") var k = 10
        @Option(
            help:
                "hybrid, keyword or semantic (default: library.search_mode, else hybrid when the library has vectors).")
        var mode: Retriever.Mode?
        @OptionGroup var scope: ScopeOptions
        @OptionGroup var printing: OutputOptions
        func validate() throws {
            guard k > 0 else { throw ValidationError("--k must be at least 1 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: mode.map { ["search_mode": .string($0.rawValue)] } ?? [:]) { options in
                await runner.search(
                    query.joined(separator: " "), k: k, filter: scope.filter, json: printing.json, options: options)
            }
        }
    }

    struct Ask: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "ask",
            abstract:
                "Answer from the library with citations: with a model when one is configured, else the best sentences.")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "The question.") var question: [String]
        @Option(help: "How many passages to answer from (default: library.passages in config.yaml, else 5).") var k:
            Int?
        @OptionGroup var scope: ScopeOptions
        @Flag(help: "Answer without a model, even when one is configured.") var offline = false
        @Flag(help: "Check each sentence of the answer against the passages it cites; the flagged ones are listed.")
        var verify = false
        @Flag(help: "With --verify, list the supported sentences too.") var verbose = false
        @OptionGroup var printing: OutputOptions
        func validate() throws {
            if let k, !(1...50).contains(k) { throw ValidationError("--k must be from 1 to 50 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: k.map { ["passages": .number(Double($0))] } ?? [:]) { options in
                await runner.ask(
                    question.joined(separator: " "), filter: scope.filter, offline: offline, options: options,
                    printing: AskPrinting(verify: verify, verbose: verbose, json: printing.json))
            }
        }
    }

    struct List: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The documents in the library.")
        @OptionGroup var printing: OutputOptions
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.list(json: printing.json) }
    }

    struct Show: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "A document's chunks and where each is.")
        @Argument(help: "The document's path.") var path: String
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.show(path) }
    }

    struct Remove: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove documents (paths or globs).")
        @Argument(help: "Paths or globs.") var paths: [String]
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.remove(paths) }
    }
}
