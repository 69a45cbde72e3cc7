import ArgumentParser
import Console
import Foundation
import ResponsesAPI

struct StoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores", abstract: "Create, list, fill, search and delete vector stores.",
        subcommands: [
            Create.self, List.self, Show.self, Update.self, Delete.self, Files.self, Add.self, Remove.self, Search.self,
        ])

    struct Create: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create a vector store (paths are uploaded first).")
        @Argument(help: "The store's name.") var name: String
        @Option(name: .customLong("file"), help: "A file id or a path to upload (repeatable).") var files: [String] = []
        @Option(help: "Expire this many days after last use.") var expiresAfterDays: Int?
        @Option(help: "auto, or static:MAX:OVERLAP (tokens).") var chunking: String?
        @Option(help: "KEY=VALUE (repeatable).") var metadata: [String] = []
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.createStore(
                name: name, files: files, expiresAfterDays: expiresAfterDays, chunking: chunking, metadata: metadata,
                json: printing.json)
        }
    }

    struct List: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List vector stores.")
        @Option(help: "How many (one page).") var limit: Int?
        @Flag(help: "Every store, following pagination.") var all = false
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.listStores(limit: limit, all: all, json: printing.json)
        }
    }

    struct Show: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one vector store.")
        @Argument(help: "The store id.") var id: String
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus { await runner.showStore(id: id, json: printing.json) }
    }

    struct Update: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Rename a store or change its metadata or expiry.")
        @Argument(help: "The store id.") var id: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "KEY=VALUE (repeatable).") var metadata: [String] = []
        @Option(help: "Expire this many days after last use.") var expiresAfterDays: Int?
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.updateStore(
                id: id, name: name, metadata: metadata, expiresAfterDays: expiresAfterDays, json: printing.json)
        }
    }

    struct Delete: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete vector stores (their files stay).")
        @Argument(help: "Store ids.") var ids: [String]
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.deleteStores(ids: ids, json: printing.json)
        }
    }

    struct Files: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "files", abstract: "List a store's files.")
        @Argument(help: "The store id.") var id: String
        @Option(help: "in_progress, completed, failed or cancelled.") var status: String?
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.storeFiles(id: id, status: status, json: printing.json)
        }
    }

    struct Add: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add files (ids or paths, uploaded first; several go as one batch) and wait for processing.")
        @Argument(help: "The store id.") var id: String
        @Argument(help: "File ids or paths.") var files: [String]
        @Option(name: .customLong("attribute"), help: "KEY=VALUE (repeatable).") var attributes: [String] = []
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.addFiles(id: id, items: files, attributes: attributes, json: printing.json)
        }
    }

    struct Remove: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take files out of a store (the files stay).")
        @Argument(help: "The store id.") var id: String
        @Argument(help: "File ids.") var fileIDs: [String]
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.removeFiles(id: id, fileIDs: fileIDs, json: printing.json)
        }
    }

    struct Search: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "search", abstract: "Search one or more stores at once; matches merged by score.")
        @Argument(help: "Store ids, comma-separated.") var ids: String
        @Argument(help: "The query.") var query: [String]
        @Option(help: "At most this many matches.") var maxResults: Int?
        @Option(help: "A filter as JSON (attributes).") var filter: String?
        @Flag(help: "Let the server rewrite the query.") var rewrite = false
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.search(
                ids: ids.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) },
                query: query.joined(separator: " "),
                maxResults: maxResults, filter: filter, rewrite: rewrite, json: printing.json)
        }
    }
}
