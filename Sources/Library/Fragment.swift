import Foundation
import ResponsesAPI

/// A document's text given as context for one prompt (`ask -f`, `/fragment`): read from a file, a URL or
/// standard input through the library's extractors, and known by the SHA-256 of that text, so the same
/// text given twice (two paths, or one path twice) is sent once and kept once (`FragmentStore`).
public struct Fragment: Sendable, Hashable {
    /// Where it came from, as the user wrote it: a path, a URL, or `stdin`.
    public var source: String
    /// The SHA-256 of `text` (its UTF-8), in lower-case hex.
    public var sha256: String
    /// The extracted text, without leading or trailing blank lines.
    public var text: String
    /// The kind of document it was read as.
    public var type: DocumentType

    public init(source: String, text: String, type: DocumentType) {
        self.source = source
        self.text = Self.trimmed(text)
        self.sha256 = Ingest.sha256(self.text)
        self.type = type
    }

    /// The first 12 hex digits of the hash, for people to read.
    public var shortHash: String { String(sha256.prefix(12)) }

    /// Bytes of UTF-8 text.
    public var byteCount: Int { text.utf8.count }

    /// How the fragment goes into the user's message, as an `input_text` part of its own before the prompt:
    /// `<fragment source="notes.md" sha256="…">`, the text, `</fragment>`. The text is sent as it is (not
    /// escaped); the source is escaped as an XML attribute.
    public var block: String {
        "<fragment source=\"\(Self.attribute(source))\" sha256=\"\(sha256)\">\n\(text)\n</fragment>"
    }

    /// The source and hash of a part written by `block`, or nil for any other text (history shows a
    /// fragment by these instead of its whole text).
    public static func parseBlock(_ text: String) -> (source: String, sha256: String)? {
        guard text.hasPrefix("<fragment source=\""), text.hasSuffix("\n</fragment>"),
            let head = text.split(separator: "\n", maxSplits: 1).first
        else { return nil }
        let pattern = /^<fragment source="([^"]*)" sha256="([0-9a-f]{64})">$/
        guard let match = head.wholeMatch(of: pattern) else { return nil }
        return (unescape(String(match.1)), String(match.2))
    }

    /// Whether `text` is a fragment's block.
    public static func isBlock(_ text: String) -> Bool { parseBlock(text) != nil }

    /// The text without the line breaks and blank lines around it.
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isNewline || first == " " || first == "\t" {
            // Keep the first line's indentation: only whole blank lines go.
            guard let lineEnd = scalars.firstIndex(where: \.isNewline),
                scalars[..<lineEnd].allSatisfy({ $0 == " " || $0 == "\t" })
            else { break }
            scalars = scalars[scalars.index(after: lineEnd)...]
        }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\n", with: "&#10;")
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&#10;", with: "\n").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Where a fragment is read from: `-` is standard input, an `http://` or `https://` address is fetched,
/// anything else is a path.
public enum FragmentSource: Sendable, Hashable, CustomStringConvertible {
    case file(String)
    case url(URL)
    case standardInput

    public init(_ argument: String) {
        let lowered = argument.lowercased()
        if argument == "-" {
            self = .standardInput
        } else if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: argument),
            url.host != nil
        {
            self = .url(url)
        } else {
            self = .file(argument)
        }
    }

    /// As the user wrote it (`stdin` for `-`).
    public var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url.absoluteString
        case .standardInput: "stdin"
        }
    }
}

/// A fragment that could not be read: the source (and the page, for a PDF page), and why. A usage error:
/// the source is what is wrong, and nothing has been sent.
public struct FragmentError: UserFacingError, Hashable, CustomStringConvertible {
    public var source: String
    public var page: Int?
    public var message: String
    public var hint: String?

    public init(source: String, page: Int? = nil, _ message: String, hint: String? = nil) {
        self.source = source
        self.page = page
        self.message = message
        self.hint = hint
    }

    /// A library error about `source` (its path, when it was read from a temporary copy, replaced).
    init(source: String, _ error: LibraryError) {
        self.init(source: source, page: error.page, error.message)
    }

    /// The source (and page) and the message: `notes.pdf page 3: ...`.
    public var located: String { "\(source)\(page.map { " page \($0)" } ?? ""): \(message)" }
    public var description: String { "fragment " + located }
    public var userMessage: String { description + ": nothing was sent" }
    public var exitStatus: ExitStatus { .usage }
}
