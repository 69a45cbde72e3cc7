import Embeddings
import Foundation
import TestSupport
import Testing

/// all-MiniLM-L6-v2 run by this project's encoder, with the real weights: the published similarities, a
/// reference embedding, and the tokenizer id for id against Hugging Face's on awkward strings. The
/// references come from scripts/reference/minilm_reference.py (Hugging Face `tokenizers` for the ids, an
/// independent NumPy float64 forward pass for the vector), run once and kept in Fixtures/minilm.
@Suite(
    "MiniLM with the real weights", .enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason))
)
struct MiniLMTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/minilm")

    func model() throws -> MiniLMModel {
        let folder = try #require(InstalledModel.minilm, Comment(rawValue: InstalledModel.skipReason))
        return try MiniLMModel(folder: folder)
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Double {
        zip(a, b).reduce(0) { $0 + Double($1.0) * Double($1.1) }
    }

    @Test func theModelCardsSimilarities() throws {
        let vectors = try model().embed([
            "The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium.",
        ])
        #expect(vectors.allSatisfy { $0.count == 384 })
        for vector in vectors { #expect(abs(Self.dot(vector, vector) - 1) < 1e-5) }
        #expect(abs(Self.dot(vectors[0], vectors[1]) - 0.6660) < 0.001)
        #expect(abs(Self.dot(vectors[0], vectors[2]) - 0.1046) < 0.001)
        #expect(abs(Self.dot(vectors[1], vectors[2]) - 0.1411) < 0.001)
    }

    struct Reference: Decodable {
        var sentences: [String]
        var first16: [[Double]]
    }

    @Test func theFirstValuesMatchTheReferenceForwardPass() throws {
        let reference = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("embedding-reference.json")))
        let vectors = try model().embed(reference.sentences)
        for (vector, expected) in zip(vectors, reference.first16) {
            for (value, wanted) in zip(vector.prefix(16), expected) {
                #expect(abs(Double(value) - wanted) < 2e-5, "\(value) against \(wanted)")
            }
        }
    }

    @Test func aBatchGivesWhatEachTextGivesAlone() throws {
        let model = try model()
        let texts = [
            "short", "a somewhat longer sentence about retrieval and ranking", "",
            String(repeating: "word ", count: 60),
        ]
        let batched = model.embed(texts)
        for (text, vector) in zip(texts, batched) {
            let alone = model.embed([text])[0]
            #expect(zip(alone, vector).allSatisfy { abs($0 - $1) < 1e-5 }, "\(text.prefix(20))")
        }
    }

    struct Tokenized: Decodable {
        var text: String
        var ids: [Int32]
    }

    @Test func tokenIDsEqualHuggingFacesOnTheAwkwardCorpus() throws {
        let corpus = try JSONDecoder().decode(
            [Tokenized].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("tokenizer-ids.json")))
        #expect(corpus.count >= 30)
        let tokenizer = try model().tokenizer
        for entry in corpus {
            #expect(tokenizer.encode(entry.text) == entry.ids, "\(entry.text.prefix(60))")
        }
    }
}
