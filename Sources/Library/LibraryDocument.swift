import Foundation

/// A document as the library keeps it.
public struct LibraryDocument: Sendable, Hashable {
    public enum Status: String, Sendable { case indexed, failed }

    public var id: Int64
    public var path: String
    public var title: String?
    public var type: DocumentType
    public var size: Int
    public var sha256: String
    public var pages: Int?
    public var status: Status
    public var error: String?
    public var chunkCount: Int

    /// The title, or the file's name.
    public var displayName: String { title ?? URL(fileURLWithPath: path).lastPathComponent }
}

/// One search result: a chunk, where it is, and how well it matched.
public struct SearchHit: Sendable, Hashable {
    public var chunkID: Int64
    public var path: String
    public var title: String?
    public var type: DocumentType
    public var page: Int?
    public var heading: String?
    public var start: Int
    public var end: Int
    public var text: String
    /// The ranking's score, higher is better: BM25 for keyword search, the cosine for semantic search,
    /// the fused score for hybrid search (`explanation`).
    public var score: Double
    /// The matched passage with the query's words between `SearchHit.markStart` and `markEnd`.
    public var snippet: String
    /// The next page, when the passage runs on across a page break (`page` is where it starts).
    public var endPage: Int? = nil
    /// Where each ranking put this passage (from 1) and its score there (BM25; cosine), when it did.
    public var keywordRank: Int? = nil
    public var keywordScore: Double? = nil
    public var semanticRank: Int? = nil
    public var semanticScore: Double? = nil
    /// Why hybrid search ranked it where it did.
    public var explanation: RankingExplanation? = nil
    /// For a passage that begins inside a fenced code block: the block's fence, so that its lines are read as
    /// code (`LibraryStore.markingCode`; nil when it begins outside code or was not looked at).
    public var codeStart: CodeStart? = nil

    /// Where a passage that begins inside a code block stands in it.
    public struct CodeStart: Sendable, Hashable {
        /// The line that opened the block, less its indentation: "```sh".
        public var fence: String
        /// The passage's first line as far as it comes before the passage: its indentation, or a piece of the
        /// line when the passage begins in the middle of it.
        public var lead: String
    }

    public static let markStart = "\u{2}"
    public static let markEnd = "\u{3}"

    /// Where it is, for people: `file.pdf p. 3 › Heading`.
    public var location: String {
        var text = URL(fileURLWithPath: path).lastPathComponent
        if let page { text += endPage.map { " pp. \(page)–\($0)" } ?? " p. \(page)" }
        if let heading, !heading.isEmpty { text += " › \(heading)" }
        return text
    }
}
