import Foundation
import Testing

@testable import Library

/// Two mistakes an outside audit planted and no test noticed (issue 50): the chunker's overlap turned off, and
/// the fusion's two weights swapped. Each test here fails on its mistake.
@Suite("Chunk overlap and fusion weights")
struct ChunkOverlapAndFusionTests {
    /// One segment of numbered words, long enough for several chunks.
    static let document: ExtractedDocument = {
        let text = (1...120).map { "word\($0)" }.joined(separator: " ")
        let length = text.unicodeScalars.count
        return ExtractedDocument(
            text: text, segments: [ExtractedDocument.Segment(page: nil, headings: [], start: 0, end: length)])
    }()

    @Test func eachChunkRepeatsTheEndOfTheOneBeforeFromAWordsStart() throws {
        let chunks = Chunker(size: 100, overlap: 30).chunks(of: Self.document)
        try #require(chunks.count >= 5)
        let scalars = Array(Self.document.text.unicodeScalars)
        for (before, chunk) in zip(chunks, chunks.dropFirst()) {
            // It starts inside the chunk before, by at most the overlap, at the start of a word.
            #expect(chunk.start < before.end, "chunk \(chunk.ordinal) starts at \(chunk.start), after \(before.end)")
            #expect(before.end - chunk.start <= 30)
            #expect(chunk.start == 0 || scalars[chunk.start - 1] == " ")
            // So the words at the end of one chunk are at the start of the next.
            let lastWord = before.text.split(separator: " ").last.map(String.init) ?? ""
            #expect(chunk.text.split(separator: " ").prefix(6).contains { $0 == lastWord }, "\(lastWord)")
        }
        // Without overlap the chunks follow each other.
        let apart = Chunker(size: 100, overlap: 0).chunks(of: Self.document)
        for (before, chunk) in zip(apart, apart.dropFirst()) { #expect(chunk.start >= before.end) }
    }

    @Test func theFusionsWeightsFavourTheRankingTheyNameAndNotTheOther() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let store = try LibraryStore.open(at: files.folder.appendingPathComponent("library.sqlite").path)
        let urls = try [files.write("keyword.txt", "quokka habitat"), files.write("meaning.txt", "marsupial island")]
        _ = await Ingest(store: store, extractors: Extractors(environment: [:])).add(urls) { _ in }
        let keywordHit = try #require(try await store.search("quokka", k: 1).first)
        let meaningHit = try #require(try await store.search("marsupial", k: 1).first)
        // Each ranking finds one passage, first: only the weights can decide between them.
        func fused(keywordWeight: Double, semanticWeight: Double, method: Retriever.Fusion.Method) -> [Int64] {
            var retriever = Retriever(store: store, embedder: nil)
            retriever.fusion.method = method
            retriever.fusion.keywordWeight = keywordWeight
            retriever.fusion.semanticWeight = semanticWeight
            return retriever.fuse(
                keyword: [.init(id: keywordHit.chunkID, score: keywordHit.score)],
                semantic: [.init(id: meaningHit.chunkID, score: 0.9)]
            ).map(\.id)
        }
        for method in [Retriever.Fusion.Method.convex, .reciprocalRank] {
            #expect(
                fused(keywordWeight: 2, semanticWeight: 1, method: method) == [keywordHit.chunkID, meaningHit.chunkID])
            #expect(
                fused(keywordWeight: 1, semanticWeight: 2, method: method) == [meaningHit.chunkID, keywordHit.chunkID])
        }
    }
}
