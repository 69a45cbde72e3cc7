import Foundation

/// `{{name}}` placeholders in a preset's text (its instructions, input template and tool descriptions):
/// found, and replaced by their values in one pass over the template's own text, so a value (or the user's
/// input, which fills `{{input}}` only after every variable is replaced) is never read for placeholders
/// itself. A name is a letter or `_`, then letters, digits, `_` or `-`; spaces inside the braces are allowed
/// (`{{ name }}`). Anything else between braces is left as written.
public enum TemplateVariables {
    /// The placeholder the user's message fills in an input template.
    public static let inputName = "input"

    /// One placeholder: its name and where it is in the text.
    public struct Placeholder: Sendable, Hashable {
        public var name: String
        public var range: Range<String.Index>
    }

    /// Every placeholder in `text`, in order.
    public static func placeholders(in text: String) -> [Placeholder] {
        var found: [Placeholder] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "{{", range: searchStart..<text.endIndex) {
            guard let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) else { break }
            let inside = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if isName(inside) {
                found.append(Placeholder(name: inside, range: open.lowerBound..<close.upperBound))
                searchStart = close.upperBound
            } else {
                searchStart = text.index(after: open.lowerBound)
            }
        }
        return found
    }

    /// Whether `text` is a variable name.
    public static func isName(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || isASCIILetter(first) else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || isASCIILetter($0) || ("0"..."9").contains($0)
        }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// `text` with each placeholder replaced by its value; placeholders named in `keeping` stay as written,
    /// and those with no value are left as written and named in `missing` (in order, once each).
    public static func substitute(_ text: String, values: [String: String], keeping: Set<String> = [])
        -> (text: String, missing: [String])
    {
        var result = ""
        var missing: [String] = []
        var copied = text.startIndex
        for placeholder in placeholders(in: text) where !keeping.contains(placeholder.name) {
            guard let value = values[placeholder.name] else {
                if !missing.contains(placeholder.name) { missing.append(placeholder.name) }
                continue
            }
            result += text[copied..<placeholder.range.lowerBound]
            result += value
            copied = placeholder.range.upperBound
        }
        result += text[copied...]
        return (result, missing)
    }

    /// The first place `{{name}}` is written in a file's `text`, as a line and a column (1-based, counted in
    /// Unicode scalars); nil when it is not there as written (a YAML escape or fold).
    public static func location(of name: String, in text: String) -> (line: Int, column: Int)? {
        guard let placeholder = placeholders(in: text).first(where: { $0.name == name }) else { return nil }
        // By scalar, not by Character: "\r\n" is one Character, and is not "\n".
        let before = text.unicodeScalars[..<placeholder.range.lowerBound]
        let line = before.reduce(into: 1) { count, scalar in if scalar == "\n" { count += 1 } }
        let lineStart = before.lastIndex(of: "\n").map { text.unicodeScalars.index(after: $0) } ?? text.startIndex
        return (line, text.unicodeScalars[lineStart..<placeholder.range.lowerBound].count + 1)
    }
}
