import Foundation

/// How well a ranking answers labelled queries: nDCG@k, Recall@k and the reciprocal rank of the first
/// relevant document (0 past k), over documents, with binary relevance. A ranking is a list of hits
/// (path and pages); a document is ranked where its first counted hit is. A labelled query names its
/// documents as the library shows their paths, or by a path's last components (`notes/a.md`, `a.md`); with
/// `pages`, only a document's hits on those pages count for it (hits elsewhere in it are passed over).
public struct RetrievalMetrics: Sendable, Hashable {
    public var ndcg: Double
    public var recall: Double
    public var reciprocalRank: Double

    public init(ndcg: Double, recall: Double, reciprocalRank: Double) {
        self.ndcg = ndcg
        self.recall = recall
        self.reciprocalRank = reciprocalRank
    }

    /// One ranked hit: where it is.
    public struct Hit: Sendable, Hashable {
        public var path: String
        public var pages: ClosedRange<Int>?

        public init(path: String, pages: ClosedRange<Int>? = nil) {
            self.path = path
            self.pages = pages
        }
    }

    /// A labelled query: the text and the documents that answer it.
    public struct Query: Sendable, Hashable, Decodable {
        public var query: String
        public var paths: [String]
        public var pages: [Int]?

        public init(query: String, paths: [String], pages: [Int]? = nil) {
            self.query = query
            self.paths = paths
            self.pages = pages
        }
    }

    public static func score(_ hits: [Hit], for query: Query, k: Int = 10) -> RetrievalMetrics {
        let labels = Array(Set(query.paths))
        var ranked: [String?] = []  // the label each ranked document answers, nil for one that answers none
        var seen = Set<String>()
        for hit in hits {
            let label = labels.first { matches(hit.path, $0) }
            if let pages = query.pages, label != nil {
                guard let range = hit.pages, pages.contains(where: range.contains) else { continue }
            }
            guard seen.insert(hit.path).inserted else { continue }
            ranked.append(label)
            if ranked.count == k { break }
        }
        var dcg = 0.0
        var found = Set<String>()
        var first: Int?
        for (index, label) in ranked.enumerated() {
            guard let label, found.insert(label).inserted else { continue }
            dcg += 1 / log2(Double(index) + 2)
            if first == nil { first = index + 1 }
        }
        let ideal = (0..<min(labels.count, k)).reduce(0.0) { $0 + 1 / log2(Double($1) + 2) }
        return RetrievalMetrics(
            ndcg: ideal > 0 ? dcg / ideal : 0, recall: labels.isEmpty ? 0 : Double(found.count) / Double(labels.count),
            reciprocalRank: first.map { 1 / Double($0) } ?? 0)
    }

    /// Whether `path` is the labelled document: equal, or ending with the label as whole path components.
    static func matches(_ path: String, _ label: String) -> Bool {
        let trimmed = label.hasPrefix("./") ? String(label.dropFirst(2)) : label
        return path == trimmed || path.hasSuffix("/" + trimmed)
    }

    /// The mean of each figure over several queries.
    public static func mean(_ all: [RetrievalMetrics]) -> RetrievalMetrics {
        let n = Double(max(all.count, 1))
        return RetrievalMetrics(
            ndcg: all.reduce(0) { $0 + $1.ndcg } / n, recall: all.reduce(0) { $0 + $1.recall } / n,
            reciprocalRank: all.reduce(0) { $0 + $1.reciprocalRank } / n)
    }
}
