import Workbench

/// What Tab offers at the console's prompt: slash commands, `/preset` subcommands and preset names,
/// setting keys after `/set`, `/unset` and `/reset`, and a setting's allowed values after `/set KEY`.
/// Pure: given the line before the word and the word, it returns the candidates.
public struct Completer: Sendable {
    public var presetNames: @Sendable () -> [String]
    /// Vector store ids seen in this session (listed or used), for `/stores use` and friends.
    public var storeIDs: @Sendable () -> [String]

    public init(presetNames: @escaping @Sendable () -> [String], storeIDs: @escaping @Sendable () -> [String] = { [] }) {
        self.presetNames = presetNames
        self.storeIDs = storeIDs
    }

    public static let commands = [
        "/attach", "/conversation", "/detach", "/edit", "/files", "/help", "/history", "/inspect", "/mode", "/new", "/payload", "/preset",
        "/quit", "/reset", "/resume", "/retry", "/set", "/settings", "/stores", "/stream", "/unset",
    ]

    /// Setting keys as typed (`metadata.` for `metadata.*`).
    static let settingKeys = SettingsRegistry.all.map { $0.key.hasSuffix(".*") ? String($0.key.dropLast()) : $0.key }

    /// The candidates for `word`, where `before` is the text of the line before it.
    public func candidates(before: String, word: String) -> [String] {
        let words = before.split(separator: " ").map(String.init)
        let options: [String]
        switch (words.first, words.count) {
        case (nil, _):
            options = word.hasPrefix("/") ? Self.commands : []
        case ("/preset", 1):
            options = ["list", "use", "show", "save", "diff"]
        case ("/preset", 2) where ["use", "show", "diff"].contains(words[1]), ("/preset", 3) where words[1] == "diff":
            options = presetNames()
        case ("/set", 1), ("/unset", 1), ("/reset", 1):
            options = Self.settingKeys
        case ("/set", 2):
            options = Self.values(for: words[1])
        case ("/stream", 1):
            options = ["on", "off"]
        case ("/inspect", 1):
            options = ["last"]
        case ("/mode", 1):
            options = ["stored", "stateless"]
        case ("/conversation", 1):
            options = ["new", "use"]
        case ("/files", 1):
            options = ["upload", "list", "show", "download", "delete"]
        case ("/stores", 1):
            options = ["use", "create", "list", "show", "update", "delete", "files", "add", "remove", "search"]
        case ("/stores", 2) where ["use", "show", "files", "add", "remove", "search", "delete", "update"].contains(words[1]):
            options = storeIDs() + (words[1] == "use" ? ["none"] : [])
        default:
            options = []
        }
        return options.filter { $0.hasPrefix(word) }
    }

    /// True where Tab completes file names (readline's own completion): after `/attach`.
    public static func completesFileNames(before: String) -> Bool {
        before.hasPrefix("/attach ") || before.hasPrefix("/files upload ")
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
