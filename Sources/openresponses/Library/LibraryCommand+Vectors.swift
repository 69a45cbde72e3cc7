import ArgumentParser
import Console
import Foundation
import Library
import ResponsesAPI
import Workbench

/// `library reembed`, `push`, `compare`, `eval` and `stats`: the library's vectors, its documents pushed to a
/// vector store, its rankings measured, its figures.
extension LibraryCommand {
    struct Reembed: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "reembed",
            abstract:
                "Compute the library's vectors with an embedder (switching to it), or drop them with --embedder none.")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Option(help: "\(EmbedderSpec.help) (default: library.embedder, else the library's own, else minilm).")
        var embedder: String?
        func validate() throws {
            if let embedder {
                do { _ = try EmbedderSpec(parsing: embedder) } catch {
                    throw ValidationError("--embedder: \(error.message)")
                }
            }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: embedder.map { ["embedder": .string($0)] } ?? [:]) { options in
                await runner.reembed(options: options)
            }
        }
    }

    struct Push: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract:
                "Upload the library's documents to a vector store with their attributes; those already there are skipped."
        )
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "Documents (paths, folders or globs; default: the whole library).") var paths: [String] = []
        @Option(help: "The vector store to push to.") var store: String?
        @Option(name: .customLong("new"), help: "Create a vector store with this name and push to it.") var new: String?
        @Option(help: "auto, or static:SIZE:OVERLAP in tokens (the store's chunking_strategy).") var chunking: String?
        func validate() throws {
            guard (store == nil) != (new == nil) else {
                throw ValidationError("give --store ID or --new NAME (one of them)")
            }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.push(paths, storeID: store, newName: new, chunking: chunking)
        }
    }

    struct Compare: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract:
                "The keyword, semantic and hybrid rankings (and a vector store's search) side by side, rank by rank.")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(help: "What to look for.") var query: [String]
        @Option(help: "A vector store whose search (POST /vector_stores/ID/search) is shown beside.") var store: String?
        @Option(help: "How many ranks.") var k = 10
        func validate() throws {
            guard (1...50).contains(k) else { throw ValidationError("--k must be from 1 to 50 (got \(k))") }
        }
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: [:]) { options in
                await runner.compare(query.joined(separator: " "), storeID: store, k: k, options: options)
            }
        }
    }

    struct Eval: LibraryServerCommand {
        static let configuration = CommandConfiguration(
            commandName: "eval",
            abstract:
                "nDCG@10, Recall@10 and MRR of each ranking (and a vector store's) over labelled queries (JSON Lines).")
        @OptionGroup var server: ProviderOptions<LibraryServer>
        @Argument(
            help: "A JSON Lines file: {\"query\": \"...\", \"paths\": [\"notes/a.md\"], \"pages\": [3]} per line.")
        var queries: String
        @Option(help: "A vector store to measure beside the library.") var store: String?
        @Flag(name: .customLong("per-query"), help: "One more line per query: each ranking's nDCG@10.") var perQuery =
            false
        @OptionGroup var printing: OutputOptions
        func execute(_ runner: LibraryRunner) async -> ExitStatus {
            await runner.withOptions(flags: [:]) { options in
                await runner.eval(queries, storeID: store, perQuery: perQuery, json: printing.json, options: options)
            }
        }
    }

    struct Stats: LibraryRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Documents by type, pages, chunks, index size, failures.")
        func execute(_ runner: LibraryRunner) async -> ExitStatus { await runner.stats() }
    }
}
