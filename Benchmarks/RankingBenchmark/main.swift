import Foundation
import GRDB
import Library

// The library's rankings measured on one labelled set (run by Benchmarks/ranking.sh over three): nDCG@10,
// Recall@10 and MRR@10 (RetrievalMetrics, as `library eval` computes them) of the keyword ranking, the semantic
// ranking and the default hybrid one, beside the anchors computed the same way (a plain BM25 without stemming,
// MiniLM alone, and the reciprocal-rank fusion of those two), and the fusions the default was chosen among.
// The set's library is built once in WORK (the documents added with the library's defaults, embedded with
// all-MiniLM-L6-v2) and reused while its documents are the same.
//   openresponses-ranking-bench SET WORK MODEL      (SET holds docs/ and queries.jsonl)

struct LabelledQuery: Decodable {
    var id: String
    var query: String
    /// `file`, or `file#page` for one page of it.
    var relevant: [String]
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: openresponses-ranking-bench SET WORK MODEL\n".utf8))
    exit(2)
}
let set = URL(fileURLWithPath: arguments[1], isDirectory: true)
let work = URL(fileURLWithPath: arguments[2], isDirectory: true)
let queriesPath = set.appendingPathComponent("queries.jsonl").path
let queries = try String(contentsOfFile: queriesPath, encoding: .utf8).split(separator: "\n").enumerated().map {
    index, line in
    do {
        return try JSONDecoder().decode(LabelledQuery.self, from: Data(line.utf8))
    } catch {
        FileHandle.standardError.write(Data("\(queriesPath):\(index + 1): \(error)\n".utf8))
        exit(1)
    }
}
let docs = set.appendingPathComponent("docs", isDirectory: true).resolvingSymlinksInPath()
let files = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
    .filter { DocumentType(fileExtension: $0.pathExtension) != nil }.sorted { $0.path < $1.path }
let embedder = try MiniLMEmbedder(folder: arguments[3])
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
let store = try await Workbench.library(of: files, in: work, embedder: embedder)
let chunks = try await Workbench.chunkPlaces(store)
print("\(files.count) documents, \(chunks.count) passages, \(queries.count) queries (\(set.lastPathComponent))")

/// A ranking's passages as RetrievalMetrics counts them: a page-judged query's labels are `file#page`, and a
/// passage across pages answers for the first of its pages that is labelled.
func metricsHits(_ ids: [Int64], for query: LabelledQuery) -> [RetrievalMetrics.Hit] {
    let byPage = query.relevant.contains { $0.contains("#") }
    let labels = Set(query.relevant)
    return ids.compactMap { id in
        guard let place = chunks[id] else { return nil }
        let file = URL(fileURLWithPath: place.path).lastPathComponent
        guard byPage, let page = place.page else { return RetrievalMetrics.Hit(path: file) }
        let pages = page...max(page, place.endPage ?? page)
        let labelled = pages.first { labels.contains("\(file)#\($0)") } ?? page
        return RetrievalMetrics.Hit(path: "\(file)#\(labelled)")
    }
}

/// The rankings compared, by name: the chunk ids of each, best first, from what one query found.
typealias Ranking = (name: String, rank: (Workbench.Found) -> [Int64])
let base = Retriever(store: store, embedder: embedder)
func fused(_ change: (inout Retriever.Fusion) -> Void) -> (Workbench.Found) -> [Int64] {
    var retriever = base
    change(&retriever.fusion)
    return { found in
        retriever.fuse(
            keyword: found.keyword, semantic: found.semantic, signals: found.signals, languages: found.languages
        ).map(\.id)
    }
}
let rrf: (inout Retriever.Fusion) -> Void = {
    $0.method = .reciprocalRank
    $0.adaptive = false
    $0.keywordWeight = 1
    $0.semanticWeight = 1
}
var rankings: [Ranking] = [
    ("anchor: BM25, no stemming", { $0.plain.map(\.id) }),
    ("anchor: MiniLM alone (= semantic)", { $0.semantic.map(\.id) }),
    (
        "anchor: RRF of those two, k=60",
        { found in
            var retriever = base
            rrf(&retriever.fusion)
            return retriever.fuse(keyword: found.plain, semantic: found.semantic).map(\.id)
        }
    ),
    ("keyword (porter)", { $0.keyword.map(\.id) }),
    ("semantic", { $0.semantic.map(\.id) }),
    ("RRF k=60 (the default before)", fused(rrf)),
]
for weight in [0.3, 0.4, 0.5, 0.6, 0.7] {
    rankings.append(
        (
            String(format: "convex %.1f/%.1f, fixed", weight, 1 - weight),
            fused {
                $0.adaptive = false
                $0.keywordWeight = weight
                $0.semanticWeight = 1 - weight
            }
        ))
}
for (keyword, exact, foreign) in [
    (0.4, 0.8, 0.5), (0.6, 0.8, 0.5), (0.5, 0.7, 0.5), (0.5, 0.9, 0.5), (0.5, 0.8, 0.25), (0.5, 0.8, 0.75),
    (0.4, 0.8, 0.75), (0.4, 0.9, 0.75),
] {
    rankings.append(
        (
            String(format: "adaptive %.1f, exact %.1f, foreign %.2f", keyword, exact, foreign),
            fused {
                $0.keywordWeight = keyword
                $0.semanticWeight = 1 - keyword
                $0.exactKeywordWeight = exact
                $0.foreignSemanticShare = foreign
            }
        ))
}
rankings += [
    ("convex, exact terms only", fused { $0.foreignSemanticShare = 1 }),
    ("convex, language check only", fused { $0.exactKeywordWeight = 0 }),
    ("DEFAULT (convex, adaptive)", fused { _ in }),
]

var scores = [[RetrievalMetrics]](repeating: [], count: rankings.count)
var exactQueries = 0
var foreignQueries = 0
for query in queries {
    let found = try await Workbench.find(query.query, retriever: base, embedder: embedder)
    if found.signals.exactReason != nil { exactQueries += 1 }
    if let language = found.signals.language, language != .english { foreignQueries += 1 }
    let labelled = RetrievalMetrics.Query(query: query.query, paths: query.relevant)
    for (index, ranking) in rankings.enumerated() {
        scores[index].append(RetrievalMetrics.score(metricsHits(ranking.rank(found), for: query), for: labelled))
    }
}
print("queries with an exact term: \(exactQueries); in another language than English: \(foreignQueries)")
print("ranking".padding(toLength: 36, withPad: " ", startingAt: 0) + " nDCG@10  Recall@10  MRR@10")
for (index, ranking) in rankings.enumerated() {
    let mean = RetrievalMetrics.mean(scores[index])
    print(
        ranking.name.padding(toLength: 36, withPad: " ", startingAt: 0)
            + String(format: " %7.3f  %9.3f  %6.3f", mean.ndcg, mean.recall, mean.reciprocalRank))
}
