/// How one language's code is coloured: data the `SyntaxHighlighter` reads. A language is its names (the
/// fence's info string), its keywords and built-in types, comment and string delimiters, and a few
/// switches; adding one is adding an entry to `LanguageSyntax.all`.
struct LanguageSyntax: Sendable {
    enum Mode: Sendable { case code, diff, markup }

    var names: [String]
    var keywords: Set<String> = []
    /// Built-in type names, and literals (`true`, `nil`) shown like them.
    var types: Set<String> = []
    var lineComments: [String] = []
    var blockComment: (open: String, close: String)?
    /// String delimiters, longest first (`"""` before `"`); a string may run over lines when its delimiter
    /// is in `multilineStrings`.
    var strings: [String] = ["\"", "'"]
    var multilineStrings: Set<String> = []
    /// Identifiers starting with an upper-case letter are types (Swift, Rust, Go's exported names...).
    var capitalizedTypes = false
    var caseInsensitive = false
    /// A word or string followed by `:` is a key (JSON, YAML).
    var keys = false
    /// `$NAME` is a variable (shell).
    var dollarVariables = false
    /// Characters besides letters, digits and `_` inside identifiers.
    var identifierCharacters = ""
    var mode = Mode.code

    /// The language a fence's info string names (`swift`, `py`, `ts {.line-numbers}`), if it is known.
    static func named(_ info: String) -> LanguageSyntax? {
        let name = info.split(whereSeparator: { $0 == " " || $0 == "{" || $0 == "," }).first.map { $0.lowercased() } ?? ""
        guard !name.isEmpty else { return nil }
        return byName[name]
    }

    static let byName: [String: LanguageSyntax] = {
        var table: [String: LanguageSyntax] = [:]
        for language in all { for name in language.names { table[name] = language } }
        return table
    }()
}
