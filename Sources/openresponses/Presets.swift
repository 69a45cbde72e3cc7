import ArgumentParser
import Console
import Foundation
import ResponsesAPI
import Workbench

struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presets", 
        abstract: "List, show and check presets (shipped ones and yours in the data directory).",
        subcommands: [List.self, Show.self, Validate.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every preset with its description and where it lives.")

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() {
            let library = PresetLibrary(environment: .process)
            guard json else {
                FileDescriptorOutput.standardOutput.write(PresetListing.text(library))
                return
            }
            let rows: [JSONValue] = library.entries().map { entry in
                let preset = try? Preset.load(from: entry.url)
                return [
                    "name": .string(entry.name), "path": .string(entry.url.path),
                    "source": .string(entry.isUser ? "user" : "shipped"), "overridden": .bool(entry.isOverridden),
                    "valid": .bool(preset != nil), "description": preset?.description.map(JSONValue.string) ?? .null,
                ]
            }
            FileDescriptorOutput.standardOutput.write(JSONValue.array(rows).prettyPrinted() + "\n")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a preset as it is read (schema files inlined).")

        @Argument(help: "The preset's name, or a path to a preset file.")
        var name: String

        @Flag(name: .long, help: "Print JSON instead of YAML.")
        var json = false

        func run() throws {
            do {
                let preset = try PresetLibrary(environment: .process).load(name)
                let text = json ? JSONValue.object(preset.document).prettyPrinted() + "\n" : "# \(preset.url?.path ?? name)\n" + preset.yaml
                FileDescriptorOutput.standardOutput.write(text)
            } catch {
                for line in "\(error)".split(separator: "\n") { FileDescriptorOutput.standardError.write("error: \(line)\n") }
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "validate", 
            abstract: "Check preset files (every known preset and the config file when no path is given).",
            discussion: "Prints each problem as path:line:column: key.path: message. Exit status 2 when any file is invalid.")

        @Argument(help: "Preset files to check.")
        var paths: [String] = []

        func run() throws {
            let environment = AppEnvironment.process
            var files: [(URL, isConfig: Bool)] = paths.map { (URL(fileURLWithPath: $0), false) }
            if paths.isEmpty {
                files = PresetLibrary(environment: environment).entries().map { ($0.url, false) }
                let config = ConfigFile.url(environment: environment)
                if FileManager.default.fileExists(atPath: config.path) { files.append((config, true)) }
            }
            var failures = 0
            for (url, isConfig) in files {
                do {
                    if isConfig { _ = try ConfigFile.load(from: url) } else { _ = try Preset.load(from: url) }
                    FileDescriptorOutput.standardOutput.write("ok  \(url.path)\n")
                } catch {
                    failures += 1
                    FileDescriptorOutput.standardError.write("\(error)\n")
                }
            }
            if files.isEmpty { FileDescriptorOutput.standardError.write("no preset files found\n") }
            if failures > 0 {
                FileDescriptorOutput.standardError.write("\(failures) of \(files.count) file\(files.count == 1 ? "" : "s") invalid\n")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
    }
}
