import Foundation
import Library
import TestSupport
import ZIPFoundation

// The library's figures (run by Benchmarks/library.sh in release mode): extraction throughput per type,
// chunking, adding 1,000 small text files, and search latency in-process at 1k, 10k and 100k chunks. It also
// leaves the 100k-chunk store at $1 for the script to time the whole `library search` command against.

let work = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : NSTemporaryDirectory())
    .appendingPathComponent("library-bench", isDirectory: true)
try? FileManager.default.removeItem(at: work)
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
let clock = ContinuousClock()
// Generated text with the shape of English: words drawn by Zipf's law (s = 1.07) from a vocabulary of
// 20,000, whose most frequent entries are English function words and whose next are the topic words the
// queries use. A vocabulary of a few dozen words would make every query word match every chunk, which no
// real library does.
let functionWords = [
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on",
    "not", "this", "are", "at", "from", "or", "have", "an", "they", "which", "one", "you", "were", "all",
]
let words = [
    "penguin", "krill", "colony", "winter", "storm", "refund", "policy", "invoice", "report", "revenue", "quarter",
    "shipping", "warehouse", "console", "preset", "stream", "event", "inspector", "answer", "passage", "library",
    "document", "search", "ranking", "offline", "model", "citation", "page", "heading", "chunk",
]
nonisolated(unsafe) var seed: UInt64 = 42  // one thread uses it
func random() -> UInt64 {
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return seed >> 11
}
let syllables = ["ka", "lo", "mi", "ren", "tu", "sa", "vor", "el", "din", "ga", "po", "ril", "un", "ta", "bes", "no"]
let vocabulary: [String] = {
    var vocabulary = functionWords + words
    while vocabulary.count < 20_000 {
        var made = ""
        for _ in 0..<(2 + Int(random() % 3)) { made += syllables[Int(random() % UInt64(syllables.count))] }
        vocabulary.append(made + "\(vocabulary.count)")
    }
    // The topic words among the first few hundred ranks: common, not ubiquitous.
    for index in words.indices { vocabulary.swapAt(functionWords.count + index, functionWords.count + 40 + index * 9) }
    return vocabulary
}()
let (cumulative, total): ([Double], Double) = {
    var cumulative: [Double] = []
    var total = 0.0
    for rank in 1...vocabulary.count {
        total += 1 / pow(Double(rank), 1.07)
        cumulative.append(total)
    }
    return (cumulative, total)
}()
func word() -> String {
    let target = Double(random() % 1_000_000_000) / 1_000_000_000 * total
    var low = 0
    var high = cumulative.count - 1
    while low < high {
        let middle = (low + high) / 2
        if cumulative[middle] < target { low = middle + 1 } else { high = middle }
    }
    return vocabulary[low]
}
func topic() -> String { words[Int(random() % UInt64(words.count))] }
func prose(_ bytes: Int) -> String {
    var text = ""
    while text.utf8.count < bytes {
        let sentence = (0..<12).map { _ in word() }.joined(separator: " ")
        text += sentence.prefix(1).uppercased() + sentence.dropFirst() + ". "
        if seed % 5 == 0 { text += "\n\n" }
    }
    return text
}
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
func report(_ name: String, _ value: Double, _ unit: String) {
    print(name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: " %10.2f ", value) + unit)
}
let extractors = Extractors(environment: ProcessInfo.processInfo.environment)

// LIBRARY_BENCH_SEARCH_ONLY=1 (Benchmarks/search.sh): only the 100k-chunk store and its in-process searches.
let searchOnly = ProcessInfo.processInfo.environment["LIBRARY_BENCH_SEARCH_ONLY"] != nil
if !searchOnly {
    // Extraction and chunking.
    let bigText = prose(10 << 20)
    let textURL = work.appendingPathComponent("big.txt")
    try bigText.write(to: textURL, atomically: true, encoding: .utf8)
    var extracted = ExtractedDocument()
    var elapsed = clock.measure { extracted = try! extractors.extract(textURL, as: .text) }
    report("extract text (10 MB)", 10 / seconds(elapsed), "MB/s")
    elapsed = clock.measure { _ = Chunker().chunks(of: extracted) }
    report("chunk text (10 MB, 1000/150)", 10 / seconds(elapsed), "MB/s")

    let pages = (0..<50).map { page in
        (0..<30).map { _ in (0..<8).map { _ in word() }.joined(separator: " ") } + ["page \(page + 1)"]
    }
    let pdfURL = work.appendingPathComponent("fifty.pdf")
    try PDFWriter.text(pages: pages).write(to: pdfURL)
    elapsed = clock.measure { _ = try! extractors.extract(pdfURL, as: .pdf) }
    report("extract PDF (50 pages, text layer)", 50 / seconds(elapsed), "pages/s")

    // A scanned page: page 1 rendered to grey pixels (150 dpi), made the only content of a PDF, read by OCR.
    let scanPrefix = work.appendingPathComponent("scan").path
    let render = try Process.run(
        URL(fileURLWithPath: "/usr/bin/pdftoppm"),
        arguments: ["-r", "150", "-gray", "-f", "1", "-l", "1", "-singlefile", pdfURL.path, scanPrefix])
    render.waitUntilExit()
    let pgm = try Data(contentsOf: URL(fileURLWithPath: scanPrefix + ".pgm"))
    var header: [Int] = []
    var cursor = 2
    while header.count < 3 {
        while pgm[cursor] == 0x20 || pgm[cursor] == 0x0A { cursor += 1 }
        var value = 0
        while pgm[cursor] >= 0x30 && pgm[cursor] <= 0x39 {
            value = value * 10 + Int(pgm[cursor] - 0x30)
            cursor += 1
        }
        header.append(value)
    }
    let scanURL = work.appendingPathComponent("scan.pdf")
    try PDFWriter.image(width: header[0], height: header[1], grey: Data(pgm.suffix(from: cursor + 1))).write(
        to: scanURL)
    var ocrText = ""
    elapsed = clock.measure { ocrText = try! extractors.extract(scanURL, as: .pdf).text }
    report("extract scanned PDF page (OCR, 300 dpi)", seconds(elapsed), "s/page")
    let ocrWords = Set(ocrText.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
    let pageWords = pages[0].joined(separator: " ").split(separator: " ").map(String.init)
    report(
        "  words of the page OCR read back",
        Double(pageWords.filter(ocrWords.contains).count) * 100 / Double(pageWords.count), "%")

    let docxURL = work.appendingPathComponent("big.docx")
    let archive = try Archive(url: docxURL, accessMode: .create)
    let body = (0..<20_000).map { _ in
        "<w:p><w:r><w:t>\((0..<12).map { _ in word() }.joined(separator: " ")).</w:t></w:r></w:p>"
    }.joined()
    let xml = Data(
        #"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>\#(body)</w:body></w:document>"#
            .utf8)
    try archive.addEntry(
        with: "word/document.xml", type: .file, uncompressedSize: Int64(xml.count), compressionMethod: .deflate
    ) { position, size in
        xml.subdata(in: Int(position)..<Int(position) + size)
    }
    elapsed = clock.measure { _ = try! extractors.extract(docxURL, as: .docx) }
    report("extract DOCX (\(xml.count >> 20) MB of XML)", Double(xml.count) / 1_048_576 / seconds(elapsed), "MB/s")

    // Adding 1,000 text files of 5 KB.
    let folder = work.appendingPathComponent("files", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = try (0..<1000).map { index -> URL in
        let url = folder.appendingPathComponent("note-\(index).txt")
        try prose(5 * 1024).write(to: url, atomically: true, encoding: .utf8)
        return url
    }
    let addStore = try LibraryStore.open(at: work.appendingPathComponent("add/library.sqlite").path)
    elapsed = await clock.measure { _ = await Ingest(store: addStore, extractors: extractors).add(files) { _ in } }
    report("add 1,000 text files of 5 KB", seconds(elapsed), "s")
    elapsed = await clock.measure { _ = await Ingest(store: addStore, extractors: extractors).add(files) { _ in } }
    report("add them again (all unchanged)", seconds(elapsed), "s")
}

// all-MiniLM-L6-v2, when its folder is the second argument: hybrid search latency (the query embedded too).
let embedder = CommandLine.arguments.count > 2 ? try MiniLMEmbedder(folder: CommandLine.arguments[2]) : nil

// Search at 1k, 10k and 100k chunks (documents of 100 chunks of about 1,000 characters).
let queries =
    (0..<25).map { _ in "\(topic()) \(topic())" }
    + (0..<25).map { _ in "what is the \(topic()) of the \(topic()) for a \(topic())?" }
    + ["\"refund policy\"", "peng*", "what is the refund policy for a quarter?"]
for chunks in searchOnly ? [100_000] : [1_000, 10_000, 100_000] {
    let path = work.appendingPathComponent("search-\(chunks)/library.sqlite").path
    let store = try LibraryStore.open(at: path)
    for document in 0..<(chunks / 100) {
        let parts = (0..<100).map { _ in prose(1000) }
        var text = ""
        var made: [Chunker.Chunk] = []
        for (ordinal, part) in parts.enumerated() {
            let start = text.unicodeScalars.count
            text += part
            made.append(
                Chunker.Chunk(
                    ordinal: ordinal, page: nil, headings: [], start: start, end: text.unicodeScalars.count, text: part)
            )
        }
        let record = LibraryStore.DocumentRecord(
            path: "/bench/doc-\(document).txt", type: .text, size: text.utf8.count, mtime: nil, sha256: "\(document)",
            extracted: ExtractedDocument(text: text), error: nil)
        try await store.store(record, chunks: made, chunkHash: { "\($0.hashValue)" })
    }
    // A vector for every chunk, as `library add` would store minilm's (unit length, 384 values; random here:
    // what a search costs does not depend on what the vectors mean).
    let hashes = try await store.textsWithoutVectors(embedder: "minilm", limit: chunks * 2).map(\.sha256)
    for start in stride(from: 0, to: hashes.count, by: 5_000) {
        try await store.storeVectors(
            embedder: "minilm",
            hashes[start..<min(start + 5_000, hashes.count)].map { hash in
                var vector = (0..<384).map { _ in Float(Int(random() % 2001) - 1000) }
                let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
                for index in vector.indices { vector[index] /= norm }
                return (sha256: hash, vector: vector)
            })
    }
    try await store.setEmbedder("minilm")
    await store.settle()
    var latencies: [Double] = []
    for query in queries {
        let start = clock.now
        _ = try await store.search(query, k: 10)
        latencies.append(seconds(clock.now - start) * 1000)
    }
    latencies.sort()
    report("search in-process, \(chunks) chunks: median", latencies[latencies.count / 2], "ms")
    report("search in-process, \(chunks) chunks: p95", latencies[Int(Double(latencies.count) * 0.95)], "ms")
    if let embedder {
        let retriever = Retriever(store: store, embedder: embedder)
        var hybrid: [Double] = []
        for query in queries.prefix(20) {
            let start = clock.now
            _ = try await retriever.search(query, k: 10, mode: .hybrid)
            hybrid.append(seconds(clock.now - start) * 1000)
        }
        hybrid.sort()
        report("hybrid search in-process, \(chunks) chunks: median", hybrid[hybrid.count / 2], "ms")
    }
}
print("store for the command timing: \(work.appendingPathComponent("search-100000").path)")
