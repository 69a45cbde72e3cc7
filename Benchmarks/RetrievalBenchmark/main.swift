import Foundation
import GRDB
import Library

// Retrieval quality on the labelled set in Benchmarks/retrieval (run by Benchmarks/retrieval.sh): every
// document is added to a fresh library per chunking, every query is searched, and the ranking is scored:
//   nDCG@10 and Recall@10 over documents (the first chunk of each document counts, in rank order),
//   evidence@5: the share of the labelled answer spans found inside one of the first five chunks,
//   MRR: the mean reciprocal rank of the first chunk holding an answer span (0 past rank 10).
// Each chunking is scored with the library's index (porter over unicode61, diacritics removed) and with an
// unstemmed twin of it built over the same chunks, so the stemmer and the chunk sizes are measured choices.
// Last, the offline answer `library ask` builds with the defaults is scored on the answer spans it holds.
// Then, at the default chunking, the library's three rankings (keyword, semantic with all-MiniLM-L6-v2, and
// hybrid) and a sweep of the hybrid's fusion constants, when MODEL (the model folder) is given.
//   openresponses-retrieval-bench DOCS QUERIES WORK [MODEL]

struct Query: Decodable {
    var id: String
    var query: String
    var relevant: [String]
    var evidence: [String]
}

struct Scores {
    var ndcg = 0.0, recall = 0.0, evidence = 0.0, mrr = 0.0, count = 0
    mutating func add(ranked: [(document: String, text: String)], query: Query) {
        let relevant = Set(query.relevant)
        var documents: [String] = []
        for hit in ranked where !documents.contains(hit.document) { documents.append(hit.document) }
        let top = documents.prefix(10)
        var dcg = 0.0
        for (index, document) in top.enumerated() where relevant.contains(document) {
            dcg += 1 / log2(Double(index) + 2)
        }
        let ideal = (0..<min(relevant.count, 10)).reduce(0.0) { $0 + 1 / log2(Double($1) + 2) }
        ndcg += ideal > 0 ? dcg / ideal : 0
        recall += Double(top.filter(relevant.contains).count) / Double(max(relevant.count, 1))
        let spans = query.evidence.map(normalised)
        let texts = ranked.prefix(10).map { normalised($0.text) }
        let found = spans.filter { span in texts.prefix(5).contains { $0.contains(span) } }.count
        evidence += Double(found) / Double(max(spans.count, 1))
        if let first = texts.firstIndex(where: { text in spans.contains { text.contains($0) } }) {
            mrr += 1 / Double(first + 1)
        }
        count += 1
    }
    func line(_ name: String) -> String {
        let n = Double(max(count, 1))
        return name.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%8.3f %10.3f %11.3f %7.3f", ndcg / n, recall / n, evidence / n, mrr / n)
    }
}

/// Whitespace runs as one space, so a span matches across the chunk's line breaks.
func normalised(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}

/// The `k` best chunks for `text` in the FTS5 table `table` (built over `chunk`), as the library ranks them.
func search(_ store: LibraryStore, table: String, _ text: String, k: Int) async throws -> [(
    document: String, text: String
)] {
    guard let match = FTSQuery.make(text) else { return [] }
    return try await store.writer.read { db in
        try Row.fetchAll(
            db,
            sql: """
                SELECT d.path, c.text FROM \(table) JOIN chunk c ON c.id = \(table).rowid JOIN document d ON d.id = c.document_id
                WHERE \(table) MATCH ? ORDER BY bm25(\(table)) LIMIT ?
                """, arguments: [match, k]
        ).map { (URL(fileURLWithPath: $0["path"]).lastPathComponent, $0["text"]) }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: openresponses-retrieval-bench DOCS QUERIES WORK [MODEL]\n".utf8))
    exit(2)
}
let docs = URL(fileURLWithPath: arguments[1], isDirectory: true)
let queries = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").enumerated().map {
    index, line in
    do {
        return try JSONDecoder().decode(Query.self, from: Data(line.utf8))
    } catch {
        FileHandle.standardError.write(Data("\(arguments[2]):\(index + 1): \(error)\n".utf8))
        exit(1)
    }
}
let work = URL(fileURLWithPath: arguments[3], isDirectory: true)
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
let files = try FileManager.default.contentsOfDirectory(at: docs, includingPropertiesForKeys: nil)
    .filter { DocumentType(fileExtension: $0.pathExtension) != nil }.sorted { $0.path < $1.path }
let words = try files.reduce(0) {
    $0 + (try String(contentsOf: $1, encoding: .utf8)).split(whereSeparator: \.isWhitespace).count
}
print("\(files.count) documents (\(words) words), \(queries.count) queries")
print(
    "index, chunk size/overlap (chunks)".padding(toLength: 40, withPad: " ", startingAt: 0)
        + " nDCG@10  Recall@10  evidence@5     MRR")

for (size, overlap) in [(500, 75), (1000, 0), (1000, 150), (1500, 225), (2000, 300)] {
    let store = try LibraryStore.open(at: work.appendingPathComponent("library-\(size)-\(overlap).sqlite").path)
    let ingest = Ingest(
        store: store, extractors: Extractors(environment: [:]), chunker: Chunker(size: size, overlap: overlap))
    let outcomes = await ingest.add(files) { _ in }
    for (file, outcome) in zip(files, outcomes) {
        if case .failed(let error) = outcome { FileHandle.standardError.write(Data("\(file.path): \(error)\n".utf8)) }
    }
    try store.writer.write { db in
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE chunk_fts_plain USING fts5(
                    text, heading, content = 'chunk', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO chunk_fts_plain (chunk_fts_plain) VALUES ('rebuild');
                """)
    }
    let chunks = try store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk") ?? 0 }
    for table in ["chunk_fts_plain", "chunk_fts"] {
        var scores = Scores()
        for query in queries {
            scores.add(ranked: try await search(store, table: table, query.query, k: 30), query: query)
        }
        let name = (table == "chunk_fts" ? "porter" : "unicode61") + ", \(size)/\(overlap) (\(chunks) chunks)"
        print(scores.line(name))
    }
}

// The offline answer as `library ask` builds it with the defaults (1000/150, five passages, four sentences):
// the share of the labelled answer spans its sentences hold (a sentence holds a span when it contains it, or
// when at least 60 % of the span's words are among its own), and the share of questions with at least one.
let answerStore = try LibraryStore.open(at: work.appendingPathComponent("library-1000-150.sqlite").path)
/// The offline answer's figures over the passages `passages` gives for each question.
func offlineAnswer(_ passages: (String) async throws -> [SearchHit]) async throws -> (spans: Double, questions: Double)
{
    var spansFound = 0
    var spans = 0
    var answered = 0
    for query in queries {
        let hits = try await passages(query.query)
        let sentences = AnswerBuilder().extract(question: query.query, passages: hits).map {
            normalised($0.text).lowercased()
        }
        var any = false
        for span in query.evidence.map({ normalised($0).lowercased() }) {
            spans += 1
            let spanWords = span.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            let held = sentences.contains { sentence in
                let words = Set(sentence.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
                return sentence.contains(span)
                    || Double(spanWords.filter(words.contains).count) >= 0.6 * Double(max(spanWords.count, 1))
            }
            if held {
                spansFound += 1
                any = true
            }
        }
        if any { answered += 1 }
    }
    return (Double(spansFound) / Double(max(spans, 1)), Double(answered) / Double(max(queries.count, 1)))
}
let keywordAnswer = try await offlineAnswer { try await answerStore.search($0, k: 5) }
print(
    String(
        format: "offline answer, 1000/150, 5 passages, 4 sentences: spans held %.3f, questions with one %.3f",
        keywordAnswer.spans, keywordAnswer.questions))

// The three rankings at 1000/150, through the library's Retriever, and reciprocal rank fusion (the default
// before issue 50) with its constants varied: k (how much the top ranks lead), the weights, the depth.
// Benchmarks/ranking.sh compares the fusions on three sets.
if arguments.count == 5 {
    let embedder = try MiniLMEmbedder(folder: arguments[4])
    let started = Date()
    let embedded = try await answerStore.embedMissing(with: embedder)
    print(String(format: "\nembedded %d chunks with minilm in %.1f s", embedded, Date().timeIntervalSince(started)))
    print(
        "ranking, 1000/150".padding(toLength: 40, withPad: " ", startingAt: 0)
            + " nDCG@10  Recall@10  evidence@5     MRR")
    func score(_ name: String, _ retriever: Retriever, mode: Retriever.Mode) async throws {
        var scores = Scores()
        for query in queries {
            let hits = try await retriever.search(query.query, k: 30, mode: mode).hits
            scores.add(ranked: hits.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.text) }, query: query)
        }
        print(scores.line(name))
    }
    let retriever = Retriever(store: answerStore, embedder: embedder)
    try await score("keyword", retriever, mode: .keyword)
    try await score("semantic", retriever, mode: .semantic)
    try await score("hybrid (the defaults)", retriever, mode: .hybrid)
    for (k, keyword, semantic, depth) in [
        (10.0, 1.0, 1.0, 50), (30, 1, 1, 50), (100, 1, 1, 50), (60, 1, 1.5, 50),
        (60, 1.5, 1, 50), (60, 1, 1, 30), (60, 1, 1, 100),
    ] {
        var variant = retriever
        variant.fusion.method = .reciprocalRank
        variant.fusion.adaptive = false
        variant.fusion.k = k
        variant.fusion.keywordWeight = keyword
        variant.fusion.semanticWeight = semantic
        variant.fusion.depth = depth
        try await score(
            String(format: "hybrid RRF k=%.0f w=%.1f/%.1f depth %d", k, keyword, semantic, depth), variant,
            mode: .hybrid)
    }
    let hybridAnswer = try await offlineAnswer { try await retriever.search($0, k: 5, mode: .hybrid).hits }
    print(
        String(
            format: "offline answer over hybrid passages: spans held %.3f, questions with one %.3f",
            hybridAnswer.spans, hybridAnswer.questions))
}
