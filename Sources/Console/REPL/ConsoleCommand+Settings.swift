import Foundation
import Workbench

extension ConsoleCommand {
    /// The settings of the following turns: presets, `/set`, `/model`, `/unset`, `/reset`, `/settings`.
    static let settingsCommands: [ConsoleCommand] = [
        ConsoleCommand(
            name: "/preset", aliases: ["/presets"],
            help: [
                ("/preset list", "list presets (* marks the one in use)"),
                ("/preset use NAME", "switch to a preset (your /set values stay on top)"),
                ("/preset show [NAME]", "show a preset file (the one in use by default)"),
                ("/preset save NAME", "save the current settings as a preset in your data directory"),
                ("/preset diff A B", "show how two presets differ"),
            ],
            complete: { position, words, sources in
                switch position {
                case 0: ["list", "use", "show", "save", "diff"]
                case 1 where ["use", "show", "diff"].contains(words[0]): sources.presetNames()
                case 2 where words[0] == "diff": sources.presetNames()
                default: []
                }
            },
            action: { repl, input in repl.presetCommand(input.words) }),
        ConsoleCommand(
            name: "/set", help: [("/set KEY VALUE", "change a setting for the following turns (/settings lists them)")],
            complete: { position, words, _ in
                switch position {
                case 0: Completer.settingKeys
                case 1: Completer.values(for: words[0])
                default: []
                }
            },
            action: { repl, input in repl.setCommand(input.rest) }),
        ConsoleCommand(
            name: "/model",
            help: [
                ("/model [NAME]", "show the model (and the aliases), or use NAME, a model id or an alias, from now on")
            ],
            complete: { position, _, sources in position == 0 ? sources.models() : [] },
            action: { repl, input in repl.modelCommand(input.rest) }),
        ConsoleCommand(
            name: "/unset", help: [("/unset KEY", "do not send KEY from now on")],
            complete: { position, _, _ in position == 0 ? Completer.settingKeys : [] },
            action: { repl, input in repl.unsetCommand(input.rest) }),
        ConsoleCommand(
            name: "/reset",
            help: [
                (
                    "/reset [KEY]",
                    "drop your /set and /unset (of KEY, or all): back to the flags' or the preset's values"
                )
            ],
            complete: { position, _, _ in position == 0 ? Completer.settingKeys : [] },
            action: { repl, input in repl.resetCommand(input.rest) }),
        ConsoleCommand(
            name: "/var",
            help: [("/var NAME [VALUE]", "give the preset's {{NAME}} a value (without VALUE: back to its default)")],
            action: { repl, input in repl.varCommand(input.rest) }),
        ConsoleCommand(
            name: "/vars", help: [("/vars", "the preset's variables, their values and where they come from")],
            action: { repl, _ in repl.varsCommand() }),
        ConsoleCommand(
            name: "/settings", help: [("/settings", "show every setting in effect and where it comes from")],
            action: { repl, _ in repl.settingsCommand() }),
    ]
}
