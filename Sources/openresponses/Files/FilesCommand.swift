import ArgumentParser
import Console
import Foundation
import ResponsesAPI

struct FilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "files", abstract: "Upload, list, show, download and delete files.",
        subcommands: [Upload.self, List.self, Show.self, Download.self, Delete.self])

    struct Upload: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "upload",
            abstract: "Upload files (streamed from disk; above 512 MB through the Uploads API in parts).")
        @Argument(help: "Files to upload.") var paths: [String]
        @Option(help: "assistants, user_data, batch, vision or evals.") var purpose: String = "assistants"
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func validate() throws {
            guard ["assistants", "user_data", "batch", "vision", "evals"].contains(purpose) else {
                throw ValidationError("--purpose \(purpose): use assistants, user_data, batch, vision or evals")
            }
        }
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.upload(paths: paths, purpose: purpose, json: printing.json)
        }
    }

    struct List: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List files, newest first.")
        @Option(help: "Only files with this purpose.") var purpose: String?
        @Option(help: "How many (one page).") var limit: Int?
        @Flag(help: "Every file, following pagination.") var all = false
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.list(purpose: purpose, limit: limit, all: all, json: printing.json)
        }
    }

    struct Show: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one file.")
        @Argument(help: "The file id.") var id: String
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus { await runner.show(id: id, json: printing.json) }
    }

    struct Download: FilesRunnerCommand {
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
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.download(id: id, output: output, force: force, json: printing.json)
        }
    }

    struct Delete: FilesRunnerCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete files.")
        @Argument(help: "File ids.") var ids: [String]
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus { await runner.delete(ids: ids, json: printing.json) }
    }
}
