import ArgumentParser
import Foundation
import ResponsesAPI

public struct FilesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "files", abstract: "Upload, list, show, download and delete files.",
        subcommands: [Upload.self, List.self, Show.self, Download.self, Delete.self])

    public init() {}

    struct Upload: RunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "upload",
            abstract: "Upload files (streamed from disk; above 512 MB through the Uploads API in parts).")
        @Argument(help: "Files to upload.") var paths: [String]
        @Option(help: "assistants, user_data, batch, vision or evals.") var purpose: String = "assistants"
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var server: ProviderOption
        init() {}
        func validate() throws {
            guard ["assistants", "user_data", "batch", "vision", "evals"].contains(purpose) else {
                throw ValidationError("--purpose \(purpose): use assistants, user_data, batch, vision or evals")
            }
        }
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.upload(paths: paths, purpose: purpose, json: json)
        }
    }

    struct List: RunnerCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List files, newest first.")
        @Option(help: "Only files with this purpose.") var purpose: String?
        @Option(help: "How many (one page).") var limit: Int?
        @Flag(help: "Every file, following pagination.") var all = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var server: ProviderOption
        init() {}
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.list(purpose: purpose, limit: limit, all: all, json: json)
        }
    }

    struct Show: RunnerCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one file.")
        @Argument(help: "The file id.") var id: String
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var server: ProviderOption
        init() {}
        func execute(_ runner: FilesRunner) async -> ExitStatus { await runner.show(id: id, json: json) }
    }

    struct Download: RunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "download", abstract: "Save a file's content (streamed to disk).")
        @Argument(help: "The file id.") var id: String
        @Option(
            name: .shortAndLong,
            help:
                "Where to save it (replaced if it exists). By default the file's name, made safe, in the current folder."
        )
        var output: String?
        @Flag(help: "Replace a file of the default name that already exists (without -o).") var force = false
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var server: ProviderOption
        init() {}
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.download(id: id, output: output, force: force, json: json)
        }
    }

    struct Delete: RunnerCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete files.")
        @Argument(help: "File ids.") var ids: [String]
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var server: ProviderOption
        init() {}
        func execute(_ runner: FilesRunner) async -> ExitStatus { await runner.delete(ids: ids, json: json) }
    }
}
