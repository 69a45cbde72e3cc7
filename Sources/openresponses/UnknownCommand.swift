import ArgumentParser
import Workbench

/// A mistyped subcommand. ArgumentParser takes `openresponses inspct` for an argument of the default subcommand
/// (chat) and `openresponses inspect lsit` for an unexpected argument, suggesting nothing; this says it is an
/// unknown command and names the closest real one (`NearestName`), from the command tree's own names and aliases.
/// (A mistyped flag needs nothing of ours: ArgumentParser already says "Did you mean '--model'?".)
enum UnknownCommand {
    /// The error for `arguments`, when the word after the subcommands they name is not one of the subcommands
    /// expected there and parsing fails on that very word; nil otherwise (ArgumentParser reports as usual).
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        var index = 0
        while index < arguments.count, let next = subcommand(of: command, named: arguments[index]) {
            command = next
            path.append(next._commandName)
            index += 1
        }
        let visible = command.configuration.subcommands.filter { $0.configuration.shouldDisplay }
        guard index < arguments.count, !visible.isEmpty else { return nil }
        let word = arguments[index]
        guard !word.hasPrefix("-"), word != "help" else { return nil }
        // Only when the parse fails on this word: a default subcommand may take it as its argument.
        do {
            _ = try root.parseAsRoot(arguments)
            return nil
        } catch {
            let reason = root.message(for: error)
            guard reason.lowercased().contains("unexpected argument"), reason.contains("'\(word)'") else { return nil }
        }
        let names = visible.flatMap { [$0._commandName] + $0.configuration.aliases }
        let hint = NearestName.closest(to: word, in: names).map { " — did you mean '\($0)'?" } ?? ""
        let typed = path.joined(separator: " ")
        return """
            error: unknown command '\(word)'\(hint)
            Usage: \(typed) <subcommand>
              See '\(typed) --help' for the commands.

            """
    }

    static func subcommand(of command: any ParsableCommand.Type, named word: String) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { $0._commandName == word || $0.configuration.aliases.contains(word) }
    }
}
