import Inspector
import Workbench

/// What Tab offers at the console's prompt: slash commands, then what each command declares
/// (`ConsoleCommand.complete`): `/preset` subcommands and preset names, setting keys after `/set`, `/unset`
/// and `/reset`, a setting's allowed values after `/set KEY`, ... Pure: given the line before the word and
/// the word, it returns the candidates.
struct Completer: Sendable {
    var presetNames: @Sendable () -> [String]
    /// Vector store ids seen in this session (listed or used), for `/stores use` and friends.
    var storeIDs: @Sendable () -> [String]
    /// The command line's subcommands, for `/files` and `/stores`.
    var subcommands: SubcommandTable
    /// The local MCP servers declared for the preset in use, for `/mcp`.
    var mcpServers: @Sendable () -> [String]
    /// The config file's model aliases then the model ids the price table knows, for `/model`.
    var models: @Sendable () -> [String]

    init(
        presetNames: @escaping @Sendable () -> [String], storeIDs: @escaping @Sendable () -> [String] = { [] },
        subcommands: SubcommandTable = SubcommandTable(), mcpServers: @escaping @Sendable () -> [String] = { [] },
        models: @escaping @Sendable () -> [String] = { [] }
    ) {
        self.presetNames = presetNames
        self.storeIDs = storeIDs
        self.subcommands = subcommands
        self.mcpServers = mcpServers
        self.models = models
    }

    /// What `/model` offers: the aliases first, then the model ids of the price table, each once.
    static func models(aliases: ModelAliases, prices: PriceTable) -> [String] {
        let aliasNames = aliases.names
        return aliasNames + prices.prices.keys.sorted().filter { !aliasNames.contains($0) }
    }

    /// Every command Tab offers (`ConsoleCommand.all`), sorted.
    static var commands: [String] { ConsoleCommand.names }

    /// Setting keys as typed (`metadata.` for `metadata.*`).
    static let settingKeys = SettingsRegistry.all.map { $0.key.hasSuffix(".*") ? String($0.key.dropLast()) : $0.key }

    /// The candidates for `word`, where `before` is the text of the line before it: command names for the
    /// first word, then what the command declares (`ConsoleCommand.complete`).
    func candidates(before: String, word: String) -> [String] {
        let words = before.split(separator: " ").map(String.init)
        let options: [String]
        if let first = words.first {
            let sources = CompletionSources(
                presetNames: presetNames, storeIDs: storeIDs, subcommands: { subcommands.names(of: $0) },
                mcpServers: mcpServers, models: models)
            options = ConsoleCommand.named(first)?.complete(words.count - 1, Array(words.dropFirst()), sources) ?? []
        } else {
            options = word.hasPrefix("/") ? Self.commands : []
        }
        return options.filter { $0.hasPrefix(word) }
    }

    /// True where Tab completes file names (readline's own completion): after `/attach`.
    static func completesFileNames(before: String) -> Bool {
        before.hasPrefix("/attach ") || before.hasPrefix("/fragment ") || before.hasPrefix("/files upload ")
    }

    /// The values `/set KEY` takes, when they are a closed set.
    static func values(for key: String) -> [String] {
        switch SettingsRegistry.descriptor(for: key)?.kind {
        case .choice(let values)?: values
        case .boolean?: ["true", "false"]
        default: []
        }
    }
}
