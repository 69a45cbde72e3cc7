import ArgumentParser
import Console
import Foundation
import ResponsesAPI

/// `containers files ID` and `containers download ID FILE_ID`: what the code interpreter wrote in a
/// container (the files its answers cite), listed and saved.
struct ContainersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containers", abstract: "List and download the files a code interpreter container holds.",
        subcommands: [Files.self, Download.self])

    struct Files: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "files", abstract: "List a container's files (every page).")
        @Argument(help: "The container id (cntr_...).") var id: String
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.containerFiles(containerID: id, json: printing.json)
        }
    }

    struct Download: FilesRunnerCommand {
        static let configuration = CommandConfiguration(
            commandName: "download", abstract: "Save a container file's content (streamed to disk).")
        @Argument(help: "The container id (cntr_...).") var id: String
        @Argument(help: "The file id (cfile_...).") var fileID: String
        @Option(
            name: .shortAndLong,
            help:
                "Where to save it (replaced if it exists). By default the file's own name, made safe, in the current folder."
        )
        var output: String?
        @Flag(help: "Replace a file of the default name that already exists (without -o).") var force = false
        @OptionGroup var printing: OutputOptions
        @OptionGroup var server: ProviderOptions<FilesServer>
        func execute(_ runner: FilesRunner) async -> ExitStatus {
            await runner.downloadContainerFile(
                containerID: id, fileID: fileID, output: output, force: force, json: printing.json)
        }
    }
}
