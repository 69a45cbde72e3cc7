/// SQLite FTS5 query syntax made from free text, one Unicode scalar at a time. (Quote doubling by
/// `Character` missed a `"` followed by a combining mark, one `Character` that is not `"`, and the query
/// failed with "unterminated string".)
public enum FTS5Quoting {
    /// `text` as one FTS5 string: in double quotes, each `"` doubled. A NUL, which ends SQLite's text, is
    /// left out.
    public static func phrase(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in text.unicodeScalars where scalar != "\0" {
            result.append(scalar)
            if scalar == "\"" { result.append("\"") }
        }
        result.append("\"")
        return String(result)
    }
}

/// A LIKE pattern's literal part (for `LIKE ? ESCAPE '\'`), escaped one Unicode scalar at a time: `\`, `%`
/// and `_` each behind a backslash, whatever follows them.
public enum LikePattern {
    public static func literal(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" { result.append("\\") }
            result.append(scalar)
        }
        return String(result)
    }
}
