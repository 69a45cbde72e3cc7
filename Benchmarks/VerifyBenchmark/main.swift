import Foundation
import GRDB
import Library

// How well CitationVerifier tells a sentence its passage supports from one it does not (run by
// Benchmarks/verify.sh), on pairs built from the labelled set in Benchmarks/retrieval (Benchmarks/verify/README.md):
//   positives: the sentence of a relevant document that holds an evidence span, with the passage (a library
//     chunk, 1000/150) that holds it; and the hand-written paraphrases of Benchmarks/verify/paraphrases.jsonl
//     with the same passage;
//   hard negatives: the same sentence with the passage of another document of its topic cluster that shares
//     the most of its words; easy negatives: with such a passage of a document of the next cluster.
// Documents the query names as relevant are never a negative's. The queries of even position (and the paraphrases
// of even line) choose the weight and the threshold (the best F1 of the "unsupported" flag); the others are
// scored with them.
//   openresponses-verify-bench DOCS QUERIES PARAPHRASES WORK [MODEL]

struct Query: Decodable {
    var id: String
    var relevant: [String]
    var evidence: [String]
}

struct Paraphrase: Decodable {
    var query: String
    var evidence: String
    var paraphrase: String
}

let clusters: [[String]] = [
    ["sqlite-wal.md", "fsync-journaling.md", "database-backups.md"],
    ["server-sent-events.md", "chunked-transfer-encoding.md", "websockets.md"],
    ["tesseract-ocr.md", "pdf-text-extraction.md", "scanned-document-preprocessing.md"],
    ["bpe-tokenization.md", "text-embeddings.md", "vector-indexes.md"],
    ["espresso-dialing-in.md", "pour-over-brewing.md", "coffee-grinders.md"],
    ["bike-chain-care.md", "disc-brake-bleeding.md", "tubeless-tires.md"],
    ["sourdough-starter.md", "bread-hydration.md", "bread-baking-oven.md"],
    ["wifi-channels.md", "home-dns-setup.md", "ethernet-cabling.md"],
]

func normalised(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "`", with: "")
}

func words(_ text: String) -> Set<String> {
    Set(text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init))
}

/// The sentence of `chunk` that holds `span`: from the ". " before it to the ". " after it.
func sentence(holding span: String, in chunk: String) -> String {
    let text = normalised(chunk)
    guard let range = text.range(of: span) else { return span }
    let before = text[..<range.lowerBound]
    let start = before.range(of: ". ", options: .backwards)?.upperBound ?? before.startIndex
    let after = text[range.upperBound...]
    let end = after.range(of: ". ")?.lowerBound.samePosition(in: text).map { text.index(after: $0) } ?? text.endIndex
    return String(text[start..<end]).trimmingCharacters(in: .whitespaces)
}

let arguments = CommandLine.arguments
guard arguments.count == 5 || arguments.count == 6 else {
    FileHandle.standardError.write(
        Data("usage: openresponses-verify-bench DOCS QUERIES PARAPHRASES WORK [MODEL]\n".utf8))
    exit(2)
}
func lines<T: Decodable>(_ path: String, as type: T.Type) throws -> [T] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
        try JSONDecoder().decode(T.self, from: Data($0.utf8))
    }
}
let queries = try lines(arguments[2], as: Query.self)
let paraphrases = try lines(arguments[3], as: Paraphrase.self)
let work = URL(fileURLWithPath: arguments[4], isDirectory: true)
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
let files = try FileManager.default.contentsOfDirectory(
    at: URL(fileURLWithPath: arguments[1], isDirectory: true), includingPropertiesForKeys: nil
).filter { $0.pathExtension == "md" }.sorted { $0.path < $1.path }
let store = try LibraryStore.open(at: work.appendingPathComponent("library.sqlite").path)
_ = await Ingest(store: store, extractors: Extractors(environment: [:]), chunker: Chunker()).add(files) { _ in }
let chunks: [(document: String, text: String)] = try store.writer.read { db in
    try Row.fetchAll(
        db, sql: "SELECT d.path, c.text FROM chunk c JOIN document d ON d.id = c.document_id ORDER BY c.id"
    )
    .map { (URL(fileURLWithPath: $0["path"]).lastPathComponent, $0["text"]) }
}
let chunkWords = chunks.map { words($0.text) }

struct Pair {
    var sentence: Int
    var passage: Int
    var supported: Bool
    var kind: String
    var half: Int
}
var sentences: [String] = []
var pairs: [Pair] = []

/// The chunk of `document` that shares the most words with `text`.
@MainActor func closest(_ text: String, in document: String) -> Int? {
    let wanted = words(text)
    return chunks.indices.filter { chunks[$0].document == document }
        .max { chunkWords[$0].intersection(wanted).count < chunkWords[$1].intersection(wanted).count }
}

/// Pairs for `text` (supported by chunk `passage`): the positive, a hard and an easy negative.
@MainActor func addPairs(_ text: String, passage: Int, query: Query, half: Int, kind: String) {
    sentences.append(text)
    let index = sentences.count - 1
    pairs.append(Pair(sentence: index, passage: passage, supported: true, kind: kind, half: half))
    let document = chunks[passage].document
    guard let cluster = clusters.firstIndex(where: { $0.contains(document) }) else { return }
    let same = clusters[cluster].filter { $0 != document && !query.relevant.contains($0) }
    let other = clusters[(cluster + 1) % clusters.count].filter { !query.relevant.contains($0) }
    for (documents, negative) in [(same, "hard negative"), (other, "easy negative")] {
        let candidates = documents.compactMap { closest(text, in: $0) }
        if let best = candidates.max(by: {
            chunkWords[$0].intersection(words(text)).count < chunkWords[$1].intersection(words(text)).count
        }) {
            pairs.append(Pair(sentence: index, passage: best, supported: false, kind: negative, half: half))
        }
    }
}

for (position, query) in queries.enumerated() {
    for span in query.evidence.map(normalised) {
        guard
            let passage = chunks.indices.first(where: {
                query.relevant.contains(chunks[$0].document) && normalised(chunks[$0].text).contains(span)
            })
        else { continue }
        addPairs(
            sentence(holding: span, in: chunks[passage].text), passage: passage, query: query, half: position % 2,
            kind: "verbatim")
    }
}
// The paraphrases take turns between the halves (their queries are mostly of even position).
for (number, paraphrase) in paraphrases.enumerated() {
    guard let position = queries.firstIndex(where: { $0.id == paraphrase.query }) else { continue }
    let span = normalised(paraphrase.evidence)
    guard
        let passage = chunks.indices.first(where: {
            queries[position].relevant.contains(chunks[$0].document) && normalised(chunks[$0].text).contains(span)
        })
    else { continue }
    addPairs(paraphrase.paraphrase, passage: passage, query: queries[position], half: number % 2, kind: "paraphrase")
}

let embedder = arguments.count == 6 ? try MiniLMEmbedder(folder: arguments[5]) : nil
let started = Date()
let measures = try await CitationVerifier(embedder: embedder).measure(
    sentences: sentences, passages: chunks.map(\.text),
    pairs: pairs.map { (sentence: $0.sentence, passage: $0.passage) })
let kinds = ["verbatim", "paraphrase", "hard negative", "easy negative"]
print(
    "\(files.count) documents, \(chunks.count) passages (1000/150), \(pairs.count) pairs: "
        + kinds.map { kind in "\(pairs.filter { $0.kind == kind }.count) \(kind)" }.joined(separator: ", ")
        + String(format: "; scored in %.1f s", Date().timeIntervalSince(started)))

/// Precision and recall of the "unsupported" flag (score below `threshold`) over the pairs of `half`.
@MainActor func flagFigures(_ score: (Int) -> Double, threshold: Double, half: Int) -> (
    precision: Double, recall: Double
) {
    let chosen = pairs.indices.filter { pairs[$0].half == half }
    let flagged = chosen.filter { score($0) < threshold }
    let right = flagged.filter { !pairs[$0].supported }.count
    let negatives = chosen.filter { !pairs[$0].supported }.count
    return (Double(right) / Double(max(flagged.count, 1)), Double(right) / Double(max(negatives, 1)))
}

@MainActor func report(_ name: String, weights: [Double]) {
    var best = (f1: -1.0, weight: 0.0, threshold: 0.0)
    for weight in weights {
        for step in 0...100 {
            let threshold = Double(step) / 100
            let figures = flagFigures({ combined(measures[$0], weight) }, threshold: threshold, half: 0)
            let f1 = 2 * figures.precision * figures.recall / max(figures.precision + figures.recall, 1e-9)
            if f1 > best.f1 { best = (f1, weight, threshold) }
        }
    }
    let score = { (index: Int) in combined(measures[index], best.weight) }
    let chosen = flagFigures(score, threshold: best.threshold, half: 0)
    let held = flagFigures(score, threshold: best.threshold, half: 1)
    print(
        name
            + String(
                format: ": weight of meaning %.2f, threshold %.2f; chosen on half A: precision %.3f recall %.3f; "
                    + "held-out half B: precision %.3f recall %.3f", best.weight, best.threshold,
                chosen.precision, chosen.recall, held.precision, held.recall))
    for kind in kinds {
        let rows = pairs.indices.filter { pairs[$0].half == 1 && pairs[$0].kind == kind }
        let flagged = rows.filter { score($0) < best.threshold }.count
        print("  half B, \(kind): \(flagged) of \(rows.count) flagged unsupported")
    }
}

func combined(_ measure: (similarity: Double?, overlap: Double), _ weight: Double) -> Double {
    guard let similarity = measure.similarity else { return measure.overlap }
    return weight * similarity + (1 - weight) * measure.overlap
}

report("words alone", weights: [0])
if embedder != nil {
    report("meaning alone", weights: [1])
    report("combined", weights: stride(from: 0.1, through: 0.9, by: 0.1).map { $0 })
}
