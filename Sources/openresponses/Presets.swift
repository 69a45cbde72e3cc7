import ArgumentParser
import Console
import Workbench

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets",
        abstract: "List, show and check presets (shipped ones and yours in the data directory).",
        subcommands: [List.self, Show.self, Validate.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every preset with its description and where it lives.")

        @OptionGroup var printing: OutputOptions

        func run() throws {
            try finish(PresetsRunner(CommandIO(environment: processEnvironment)).list(json: printing.json))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print a preset as it is read (schema files inlined).")

        @Argument(help: "The preset's name, or a path to a preset file.")
        var name: String

        @Flag(name: .long, help: "Print JSON instead of YAML.")
        var json = false

        func run() throws {
            try finish(PresetsRunner(CommandIO(environment: processEnvironment)).show(name, json: json))
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check preset files (every known preset and the config file when no path is given).",
            discussion:
                "Prints each problem as path:line:column: key.path: message. Exit status 2 when any file is invalid.")

        @Argument(help: "Preset files to check.")
        var paths: [String] = []

        func run() throws { try finish(PresetsRunner(CommandIO(environment: processEnvironment)).validate(paths)) }
    }
}

struct Settings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "List every setting: key, allowed values, request field, help.")

    @Flag(name: .long, help: "Print Docs/settings.md (generated from the same table).")
    var markdown = false

    @OptionGroup var printing: OutputOptions

    func run() throws {
        try finish(
            PresetsRunner(CommandIO(environment: processEnvironment)).settings(json: printing.json, markdown: markdown))
    }
}
