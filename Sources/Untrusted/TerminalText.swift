/// Text bound for a terminal, safe to write there: what a server, a model, a document, an MCP server or a
/// proxied client sent is shown with its control characters as visible pictures, so that it cannot move the
/// cursor, erase a line, retitle the window, set the clipboard (OSC 52) or hide what precedes it behind a
/// carriage return. Only the console's own text keeps its escape sequences: string literals written in the
/// code, and text a renderer composed after cleaning what it was given (`init(composed:)`).
///
/// Interpolation decides which is which: `"Run \(name)(\(arguments))? [y/N] " as TerminalText` keeps the
/// literal parts and cleans `name` and `arguments`; a `TerminalText` interpolated stays as it is.
///
/// The cleaning (`TerminalText.clean`): C0 controls other than tab and line feed become their pictures
/// (ESC → ␛, BEL → ␇, a carriage return not followed by a line feed → ␍; one followed by a line feed is
/// dropped), DEL → ␡, C1 controls (U+0080–U+009F, among them CSI and OSC) and the bidirectional overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069, which can reorder what a prompt shows) → U+FFFD. Everything else,
/// combining marks and emoji sequences included, is kept. Docs/security.md says where this is applied.
public struct TerminalText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The text as the terminal gets it.
    public private(set) var text: String

    public var description: String { text }

    /// Untrusted text, cleaned.
    public init(_ untrusted: some StringProtocol) {
        text = Self.clean(String(untrusted))
    }

    /// Text the console composed itself: its own escape sequences around text it already cleaned (the
    /// Markdown renderer's output). Written as it is; never give it bytes from elsewhere.
    public init(composed: String) {
        text = composed
    }

    /// A literal in the code is the console's own.
    public init(stringLiteral value: String) {
        text = value
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
    }

    public static let empty = TerminalText(composed: "")

    public var isEmpty: Bool { text.isEmpty }

    public static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        TerminalText(composed: lhs.text + rhs.text)
    }

    public static func += (lhs: inout TerminalText, rhs: TerminalText) {
        lhs.text += rhs.text
    }

    /// Literal parts kept, interpolated values cleaned unless they are `TerminalText` already.
    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        public mutating func appendInterpolation(_ value: TerminalText) {
            text += value.text
        }

        public mutating func appendInterpolation(_ value: String) {
            text += TerminalText.clean(value)
        }

        public mutating func appendInterpolation(_ value: Substring) {
            text += TerminalText.clean(String(value))
        }

        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += TerminalText.clean(value.description)
        }

        public mutating func appendInterpolation(_ value: (some CustomStringConvertible)?, default fallback: String) {
            text += TerminalText.clean(value?.description ?? fallback)
        }
    }
}
