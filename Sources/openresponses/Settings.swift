import ArgumentParser
import Console
import ResponsesAPI
import Workbench

struct Settings: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings", 
        abstract: "List every setting: key, allowed values, request field, help.")

    @Flag(name: .long, help: "Print Docs/settings.md (generated from the same table).")
    var markdown = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() {
        if markdown {
            FileDescriptorOutput.standardOutput.write(SettingsRegistry.markdown())
        } else if json {
            let rows: [JSONValue] = SettingsRegistry.all.map {
                ["key": .string($0.key), "values": .string($0.allowed), "api_field": $0.apiField.map(JSONValue.string) ?? .null,
                 "help": .string($0.help)]
            }
            FileDescriptorOutput.standardOutput.write(JSONValue.array(rows).prettyPrinted() + "\n")
        } else {
            let width = SettingsRegistry.all.map(\.key.count).max() ?? 0
            let lines = SettingsRegistry.all.map { setting in
                setting.key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + setting.help + " (" + setting.allowed + ")"
            }
            FileDescriptorOutput.standardOutput.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
