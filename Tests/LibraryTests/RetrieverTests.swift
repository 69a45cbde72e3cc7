import Embeddings
import Foundation
import Testing

@testable import Library

/// The library's ranking without a model: reciprocal rank and convex fusion computed by hand, the ranks and scores a
/// hybrid hit carries, vectors computed once per distinct text, dropped when no chunk needs them, and a
/// query embedded into another space refused. The embedder here counts letters (26 dimensions): a real
/// embedder with a known geometry, so every cosine can be worked out on paper.
@Suite("The library's ranking")
struct RetrieverTests {
    let files: LibraryFixtures

    init() throws { files = try LibraryFixtures() }

    /// Letter counts a–z.
    struct LetterEmbedder: Embedder {
        var identifier = "letters"
        var dimensions = 26
        let calls = Counter()
        func embed(_ texts: [String]) async throws -> [[Float]] {
            calls.add(texts.count)
            return texts.map { text in
                var vector = [Float](repeating: 0, count: dimensions)
                for scalar in text.lowercased().unicodeScalars where ("a"..."z").contains(scalar) {
                    vector[Int(scalar.value - 97) % dimensions] += 1
                }
                return vector
            }
        }
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func add(_ count: Int) { lock.withLock { value += count } }
        var total: Int { lock.withLock { value } }
    }

    func library(_ documents: [(String, String)]) async throws -> (LibraryStore, [URL]) {
        let store = try files.openStore()
        let urls = try documents.map { try files.write($0.0, $0.1) }
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add(urls) { _ in }
        return (store, urls)
    }

    @Test func hybridFusesTheTwoRankingsByReciprocalRank() async throws {
        defer { files.remove() }
        let (store, urls) = try await library([
            ("a.txt", "zzz zzz zzz quokka"), ("b.txt", "quokka quokka quokka habitat"), ("c.txt", "aaaa aaaa aaaa"),
        ])
        let embedder = LetterEmbedder()
        try await store.embedMissing(with: embedder)
        var retriever = Retriever(store: store, embedder: embedder)
        retriever.fusion.method = .reciprocalRank
        retriever.fusion.adaptive = false
        retriever.fusion.keywordWeight = 1
        retriever.fusion.semanticWeight = 1
        retriever.fusion.k = 1
        // Keyword ("quokka"): b (three times), then a. Semantic, by the cosine of letter counts with "zzzz":
        // a first (mostly z), then b and c (no z, cosine 0; ties keep the matrix's order: b before c).
        let keyword = try await retriever.search("quokka", k: 3, mode: .keyword).hits
        #expect(keyword.map(\.path) == [urls[1].path, urls[0].path])
        let semantic = try await retriever.search("zzzz", k: 3, mode: .semantic).hits
        #expect(semantic.first?.path == urls[0].path)
        // a's letters: z 9, k 2, q u o a 1 each (|a|² = 89); the query is z alone: cosine 9/√89.
        let cosine: Double = 9 / Double(89).squareRoot()
        #expect(abs((semantic.first?.score ?? 0) - cosine) < 1e-5)
        // Hybrid for "quokka zzz": keyword ranks a (both words) first, then b; semantic ranks a first, then b.
        // With k = 1: a = 1/2 + 1/2 = 1, b = 1/3 + 1/3, c = 0 + 1/4.
        let hybrid = try await retriever.search("quokka zzz", k: 3, mode: .hybrid)
        #expect(hybrid.mode == .hybrid)
        #expect(hybrid.hits.map(\.path) == [urls[0].path, urls[1].path, urls[2].path])
        #expect(abs(hybrid.hits[0].score - 1) < 1e-9)
        #expect(abs(hybrid.hits[1].score - 2.0 / 3) < 1e-9)
        #expect(abs(hybrid.hits[2].score - 1.0 / 4) < 1e-9)
        #expect(hybrid.hits[0].keywordRank == 1 && hybrid.hits[0].semanticRank == 1)
        #expect(hybrid.hits[2].keywordRank == nil && hybrid.hits[2].semanticRank == 3)
        #expect(
            hybrid.hits[2].snippet == "aaaa aaaa aaaa",
            "a passage only the vectors found has its opening as the snippet")
    }

    @Test func hybridWeighsEachRankingsScoreOverItsBest() async throws {
        defer { files.remove() }
        let (store, urls) = try await library([
            ("a.txt", "zzz zzz zzz quokka"), ("b.txt", "quokka quokka quokka habitat"), ("c.txt", "aaaa aaaa aaaa"),
        ])
        let embedder = LetterEmbedder()
        try await store.embedMissing(with: embedder)
        let retriever = Retriever(store: store, embedder: embedder)
        let keyword = try await retriever.search("quokka zzz", k: 3, mode: .keyword).hits
        let semantic = try await retriever.search("quokka zzz", k: 3, mode: .semantic).hits
        let hybrid = try await retriever.search("quokka zzz", k: 3)
        #expect(hybrid.mode == .hybrid)
        // The defaults: convex, keywords 0.4 and meaning 0.6; nothing in the query moves them (no word is in at most 5 % of
        // three passages, none is code, the language cannot be told).
        let bestKeyword = keyword.map(\.score).max() ?? 0
        let bestCosine = semantic.map(\.score).max() ?? 0
        for hit in hybrid.hits {
            let keywordPart = keyword.first { $0.chunkID == hit.chunkID }.map { $0.score / bestKeyword } ?? 0
            let semanticPart = semantic.first { $0.chunkID == hit.chunkID }.map { $0.score / bestCosine } ?? 0
            #expect(abs(hit.score - (0.4 * keywordPart + 0.6 * semanticPart)) < 1e-9, "\(hit.path)")
            #expect(hit.explanation?.method == .convex && hit.explanation?.reasons == [])
            #expect(abs((hit.explanation?.keyword?.normalised ?? 0) - keywordPart) < 1e-9)
        }
        #expect(hybrid.hits.map(\.path) == [urls[0].path, urls[1].path, urls[2].path])
        // c: no keyword part, its cosine with the query over the best.
        #expect(hybrid.hits[2].explanation?.keyword == nil && hybrid.hits[2].explanation?.semantic?.rank == 3)
    }

    @Test func vectorsAreComputedOncePerDistinctTextAndDroppedWhenNoChunkNeedsThem() async throws {
        defer { files.remove() }
        let (store, _) = try await library([
            ("one.txt", "the same words in two files"), ("two.txt", "the same words in two files"),
        ])
        let embedder = LetterEmbedder()
        #expect(try await store.embedMissing(with: embedder) == 1)
        #expect(embedder.calls.total == 1)
        #expect(try await store.embedMissing(with: embedder) == 0, "nothing left to embed")
        // Added again under another name, the same text finds its vector.
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add([
            try files.write("three.txt", "the same words in two files")
        ]) { _ in }
        #expect(try await store.embedMissing(with: embedder) == 0)
        #expect(try await store.embedder() == "letters")
        #expect(
            try await store.vectorMatrix(embedder: "letters")?.count == 3, "one row per chunk, from one stored vector")
        _ = try await store.remove(matching: files.folder.path + "/*")
        #expect(try await store.pruneVectors(keeping: "letters") == 1)
    }

    @Test func theMappedVectorsFollowTheLibrary() async throws {
        defer { files.remove() }
        let (store, urls) = try await library([("a.txt", "zzzz zzzz"), ("b.txt", "yyyy yyyy")])
        let embedder = LetterEmbedder()
        try await store.embedMissing(with: embedder)
        let retriever = Retriever(store: store, embedder: embedder)
        #expect(try await retriever.search("zz", k: 1, mode: .semantic).hits.map(\.path) == [urls[0].path])
        let file = try VectorFile(path: store.vectorFilePath)
        #expect(file.count == 2 && file.dimensions == 26)
        #expect(file.generation == (try await store.vectorGeneration()).generation)
        let mode = try FileManager.default.attributesOfItem(atPath: store.vectorFilePath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // A new document moves the library on: the next search reads the vectors again and finds it.
        let c = try files.write("c.txt", "xxxx xxxx")
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add([c]) { _ in }
        try await store.embedMissing(with: embedder)
        #expect(try await retriever.search("xx", k: 1, mode: .semantic).hits.map(\.path) == [c.path])
        #expect(try VectorFile(path: store.vectorFilePath).count == 3)
        // A filter keeps to its documents, from the mapped file too.
        let scoped = try await retriever.search("xx", k: 3, filter: .init(document: urls[1].path), mode: .semantic).hits
        #expect(scoped.map(\.path) == [urls[1].path])
        // A file left by another library at the same path (same generation) is not used.
        let other = files.folder.appendingPathComponent("other/library.sqlite").path
        let otherStore = try LibraryStore.open(at: other)
        let d = try files.write("d.txt", "wwww")
        let more = [try files.write("e.txt", "vvvv"), try files.write("f.txt", "uuuu")]
        _ = await Ingest(store: otherStore, extractors: Extractors(environment: [:])).add([d] + more) { _ in }
        try await otherStore.embedMissing(with: embedder)
        #expect(
            try await otherStore.vectorGeneration().generation == store.vectorGeneration().generation,
            "only the library differs")
        try FileManager.default.copyItem(atPath: store.vectorFilePath, toPath: otherStore.vectorFilePath)
        // Its own vectors put f ("uuuu") first for "uu"; the copied file's (z, y, x) would tie at 0 and put d first.
        #expect(
            try await Retriever(store: otherStore, embedder: embedder).search("uu", k: 1, mode: .semantic).hits.map(
                \.path) == [more[1].path])
    }

    @Test func aQueryInAnotherSpaceIsRefusedWithWhatToRun() async throws {
        defer { files.remove() }
        let (store, _) = try await library([("a.txt", "some text")])
        try await store.embedMissing(with: LetterEmbedder())
        var shorter = LetterEmbedder()
        shorter.dimensions = 10
        let error = await #expect(throws: LibraryServiceError.self) {
            try await Retriever(store: store, embedder: shorter).search("text", k: 3, mode: .semantic)
        }
        #expect(error?.message.contains("library reembed") == true)
    }

    @Test func withoutVectorsKeywordSearchAnswersAndSaysWhy() async throws {
        defer { files.remove() }
        let (store, urls) = try await library([("a.txt", "lighthouse keepers")])
        let unavailable = Retriever(store: store, embedder: nil, unavailable: "semantic search needs all-MiniLM-L6-v2")
        let result = try await unavailable.search("lighthouse", k: 3)
        #expect(result.mode == .keyword)
        #expect(result.hits.map(\.path) == [urls[0].path])
        #expect(result.notice == "semantic search needs all-MiniLM-L6-v2: searching by keywords")
        await #expect(throws: LibraryServiceError.self) {
            try await Retriever(store: store, embedder: nil).search("x", k: 3, mode: .semantic)
        }
    }

    @Test func theBestRowsAreTheLargestDotProducts() {
        var matrix = VectorMatrix(dimensions: 4)
        var generator = SystemRandomNumberGenerator()
        var rows: [[Float]] = []
        for id in 0..<500 {
            let row = (0..<4).map { _ in Float.random(in: -1...1, using: &generator) }
            rows.append(row)
            matrix.append(id: Int64(id), vector: row)
        }
        let query: [Float] = [0.5, -0.25, 1, 0.125]
        func dot(_ row: [Float]) -> Float {
            var sum: Float = 0
            for (a, b) in zip(row, query) { sum += a * b }
            return sum
        }
        let expected = rows.indices.sorted { dot(rows[$0]) > dot(rows[$1]) }
        #expect(matrix.nearest(query, k: 7).map(\.index) == Array(expected.prefix(7)))
        #expect(matrix.nearest(query, k: 0).isEmpty)
        #expect(matrix.nearest([1, 2], k: 3).isEmpty, "a query of another dimension finds nothing")
    }

    @Test func embedderNamesParse() throws {
        #expect(try EmbedderSpec(parsing: "minilm") == .minilm)
        #expect(try EmbedderSpec(parsing: "none") == EmbedderSpec.none)
        #expect(
            try EmbedderSpec(parsing: "openai:text-embedding-3-small/256")
                == .provider(model: "text-embedding-3-small", dimensions: 256))
        #expect(try EmbedderSpec(parsing: "openai:openai/minilm") == .provider(model: "openai/minilm", dimensions: nil))
        #expect(
            try EmbedderSpec(parsing: "openai:nomic-embed-text:latest").description == "openai:nomic-embed-text:latest")
        #expect(
            try EmbedderSpec(parsing: "openai:text-embedding-3-small/512@gateway")
                == .provider(model: "text-embedding-3-small", dimensions: 512, server: "gateway"))
        #expect(
            try EmbedderSpec(parsing: "openai:text-embedding-3-small/512@gateway").description
                == "openai:text-embedding-3-small/512@gateway")
        #expect(throws: LibraryServiceError.self) { try EmbedderSpec(parsing: "openai:m@") }
        #expect(throws: LibraryServiceError.self) { try EmbedderSpec(parsing: "word2vec") }
        #expect(throws: LibraryServiceError.self) { try EmbedderSpec(parsing: "openai:") }
    }
}
