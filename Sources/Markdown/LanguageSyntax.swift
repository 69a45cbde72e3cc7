/// How one language's code is coloured: data the `SyntaxHighlighter` reads. A language is its names (the
/// fence's info string), its keywords and built-in types, comment and string delimiters, and a few
/// switches; adding one is adding an entry to `LanguageSyntax.all`.
final class LanguageSyntax: Sendable {
    enum Mode: Sendable { case code, diff, markup }

    let names: [String]
    let keywords: Set<String>
    /// Built-in type names, and literals (`true`, `nil`) shown like them.
    let types: Set<String>
    /// Identifiers starting with an upper-case letter are types (Swift, Rust, Go's exported names...).
    let capitalizedTypes: Bool
    let caseInsensitive: Bool
    /// A word or string followed by `:` is a key (JSON, YAML).
    let keys: Bool
    /// `$NAME` is a variable (shell).
    let dollarVariables: Bool
    let mode: Mode
    /// Bytes that can start a comment or a string (the highlighter looks closer only at those).
    let triggers: ByteSet
    /// The bytes identifiers are made of: letters, digits, `_`, every non-ASCII byte and the language's
    /// `identifierCharacters` (the highlighter asks for every byte of every word).
    let identifierBytes: ByteSet
    /// The bytes that are plain text by themselves: none of the above, no trigger, not `$` where it starts a
    /// variable (spaces and most punctuation; the highlighter takes a run of them as one token).
    let plainBytes: ByteSet
    /// The comment and string delimiters, as bytes (the highlighter compares them with the line's bytes).
    let lineCommentBytes: [[UInt8]]
    /// A block comment's delimiters (both empty when the language has none: an optional pair of arrays was
    /// copied, both retained and released, at every byte that may start a comment or string).
    let blockOpen: [UInt8]
    let blockClose: [UInt8]
    let stringDelimiters: [StringDelimiter]

    /// A string's delimiter (longest first: `"""` before `"`), and whether a string it opens may run over lines.
    struct StringDelimiter: Sendable {
        var bytes: [UInt8]
        var multiline: Bool
    }

    /// Keywords and types of up to eight bytes, packed into a number (looked up without making a string).
    let packed: PackedWordTable
    let longestWord: Int

    enum WordKind: Sendable { case keyword, type }

    /// (A class: the highlighter hands it from call to call for every word, which a struct of sets and
    /// arrays would retain field by field.)
    init(
        names: [String], keywords: Set<String> = [], types: Set<String> = [], lineComments: [String] = [],
        blockComment: (open: String, close: String)? = nil, strings: [String] = ["\"", "'"],
        multilineStrings: Set<String> = [],
        capitalizedTypes: Bool = false, caseInsensitive: Bool = false, keys: Bool = false,
        dollarVariables: Bool = false,
        identifierCharacters: String = "", mode: Mode = .code
    ) {
        self.names = names
        self.keywords = keywords
        self.types = types
        self.capitalizedTypes = capitalizedTypes
        self.caseInsensitive = caseInsensitive
        self.keys = keys
        self.dollarVariables = dollarVariables
        self.mode = mode
        var triggers = ByteSet()
        for start in lineComments + strings + [blockComment?.open].compactMap({ $0 }) {
            if let first = start.utf8.first { triggers.insert(first) }
        }
        self.triggers = triggers
        let identifierBytes = ByteSet { byte in
            SyntaxHighlighter.isWordByte(byte) || identifierCharacters.utf8.contains(byte)
        }
        self.identifierBytes = identifierBytes
        self.plainBytes = ByteSet { byte in
            !triggers.contains(byte) && !identifierBytes.contains(byte)
                && !(dollarVariables && byte == UInt8(ascii: "$"))
        }
        self.lineCommentBytes = lineComments.map { Array($0.utf8) }
        self.blockOpen = Array((blockComment?.open ?? "").utf8)
        self.blockClose = Array((blockComment?.close ?? "").utf8)
        self.stringDelimiters = strings.map {
            StringDelimiter(bytes: Array($0.utf8), multiline: multilineStrings.contains($0))
        }
        var packed: [UInt64: WordKind] = [:]
        for word in types { if let key = Self.pack(word.utf8, lowercased: false) { packed[key] = .type } }
        for word in keywords { if let key = Self.pack(word.utf8, lowercased: false) { packed[key] = .keyword } }
        self.packed = PackedWordTable(packed.map { ($0.key, $0.value) })
        self.longestWord = (keywords.map { $0.utf8.count } + types.map { $0.utf8.count }).max() ?? 0
    }

    /// What `word` is here: a keyword, a type, or neither.
    func kind(of word: UnsafeBufferPointer<UInt8>) -> WordKind? {
        guard word.count <= longestWord else { return nil }
        if let key = Self.pack(word, lowercased: caseInsensitive) { return packed[key] }
        let text = String(decoding: word, as: UTF8.self)
        let lookup = caseInsensitive ? text.lowercased() : text
        return keywords.contains(lookup) ? .keyword : types.contains(lookup) ? .type : nil
    }

    func kind(of word: ArraySlice<UInt8>) -> WordKind? {
        word.withUnsafeBufferPointer { kind(of: $0) }
    }

    /// `pack` for bytes in memory: the bytes loaded one after another and folded eight at a time (the
    /// highlighter packs every identifier of every line).
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>, lowercased: Bool) -> UInt64? {
        guard bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        var any: UInt8 = 0
        for index in 0..<bytes.count {
            any |= bytes[index]
            key = key << 8 | UInt64(bytes[index])
        }
        guard any < 0x80 else { return nil }
        guard lowercased else { return key }
        // Every byte is ASCII (below 0x80), so adding to one never carries into the next: a byte from `A`
        // to `Z` gets its high bit from the first sum and not from the second, and that bit, moved to 0x20,
        // makes it lower case.
        let upper = (key &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(key &+ 0x2525_2525_2525_2525) & 0x8080_8080_8080_8080
        return key | upper >> 2
    }

    /// Up to eight ASCII bytes as one number (nil for longer words or other text).
    static func pack<Bytes: Collection>(_ bytes: Bytes, lowercased: Bool) -> UInt64? where Bytes.Element == UInt8 {
        guard bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            let folded = lowercased && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            key = key << 8 | UInt64(folded)
        }
        return key
    }

    /// The language a fence's info string names (`swift`, `py`, `ts {.line-numbers}`), if it is known.
    static func named(_ info: String) -> LanguageSyntax? {
        // Up to the first space, tab, `{` or `,`: in ASCII found in the bytes; otherwise by characters (a
        // combining mark after a space makes another character of it).
        let name: String
        if info.utf8.allSatisfy({ $0 < 0x80 }) {
            let end =
                info.utf8.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: ",") }
                ?? info.endIndex
            name = String(info[..<end])
        } else {
            name = String(info.prefix { $0 != " " && $0 != "\t" && $0 != "{" && $0 != "," })
        }
        guard !name.isEmpty else { return nil }
        return byName[name] ?? byName[name.lowercased()]
    }

    static let byName: [String: LanguageSyntax] = {
        var table: [String: LanguageSyntax] = [:]
        for language in all { for name in language.names { table[name] = language } }
        return table
    }()
}
