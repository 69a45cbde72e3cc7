import Dispatch
import Embeddings
import Foundation

// Embedding throughput of the built-in MiniLM encoder (Benchmarks/library.sh runs it in release mode):
// chunks per second at 128 and 256 tokens on one thread and on two (OpenBLAS's own threads, and two
// encoders side by side with one BLAS thread each), and the latency of one query.
// Usage: openresponses-embedding-bench MODEL_FOLDER [CHUNKS]
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: openresponses-embedding-bench MODEL_FOLDER [CHUNKS]\n".utf8))
    exit(2)
}
let loadStart = DispatchTime.now().uptimeNanoseconds
let model = try MiniLMModel(folder: arguments[1])
let loadTime = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e6
let vocabularyStart = DispatchTime.now().uptimeNanoseconds
_ = try WordPieceTokenizer(vocabularyFile: arguments[1] + "/vocab.txt")
let vocabularyTime = Double(DispatchTime.now().uptimeNanoseconds - vocabularyStart) / 1e6
let count = arguments.count > 2 ? Int(arguments[2]) ?? 32 : 32
let words = try String(contentsOfFile: arguments[1] + "/README.md", encoding: .utf8)
    .split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)

/// Texts that tokenize to exactly `tokens` ids ([CLS] and [SEP] included, truncation doing the rest).
func texts(tokens: Int) -> [String] {
    (0..<count).map { index in
        var text = ""
        var offset = index * 37
        while model.tokenizer.encode(text).count < tokens {
            text += words[offset % words.count] + " "
            offset += 1
        }
        return text
    }
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

print("OpenBLAS: \(MiniLMModel.blasConfiguration)")
for tokens in [128, 256] {
    let batch = texts(tokens: tokens)
    MiniLMModel.setBLASThreads(1)
    _ = model.embed(Array(batch.prefix(4)))
    let one = median((0..<3).map { _ in seconds { _ = model.embed(batch) } })
    MiniLMModel.setBLASThreads(2)
    let blas = median((0..<3).map { _ in seconds { _ = model.embed(batch) } })
    MiniLMModel.setBLASThreads(1)
    let halves = [Array(batch[..<(batch.count / 2)]), Array(batch[(batch.count / 2)...])]
    let sideBySide = median(
        (0..<3).map { _ in
            seconds { DispatchQueue.concurrentPerform(iterations: 2) { _ = model.embed(halves[$0]) } }
        })
    print(
        String(
            format:
                "embed %3d tokens: %6.1f chunks/s one thread, %6.1f two BLAS threads (as one with a serial build), %6.1f two encoders side by side",
            tokens, Double(count) / one, Double(count) / blas, Double(count) / sideBySide))
}
MiniLMModel.setBLASThreads(1)
let queries = [
    "how do I replay an exchange?", "where are the presets kept", "what does the inspector record about errors",
]
_ = model.embed([queries[0]])
let latencies = (0..<30).map { index in seconds { _ = model.embed([queries[index % queries.count]]) } }
print(String(format: "model load: %.1f ms (the vocabulary alone %.1f ms)", loadTime, vocabularyTime))
print(String(format: "query embedding: median %.1f ms (30 queries of 7-9 words, one thread)", median(latencies) * 1000))
