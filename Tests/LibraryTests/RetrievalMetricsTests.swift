import Foundation
import Library
import Testing

/// nDCG@10, Recall@10 and reciprocal rank against values worked out by hand.
@Suite("Retrieval metrics")
struct RetrievalMetricsTests {
    typealias Hit = RetrievalMetrics.Hit

    func hits(_ paths: [String]) -> [Hit] { paths.map { Hit(path: $0) } }

    @Test func twoRelevantDocumentsAtRanksTwoAndFour() {
        let query = RetrievalMetrics.Query(query: "q", paths: ["notes/a.md", "b.md"])
        let result = RetrievalMetrics.score(hits(["/x/c.md", "/x/notes/a.md", "/x/d.md", "/y/b.md"]), for: query)
        // DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068; ideal = 1 + 1/log2(3) = 1.63093.
        #expect(abs(result.ndcg - (0.630930 + 0.430677) / 1.630930) < 1e-5)
        #expect(result.recall == 1)
        #expect(result.reciprocalRank == 0.5)
    }

    @Test func repeatedHitsOfADocumentRankItOnceAndOnlyTheFirstTenDocumentsCount() {
        let query = RetrievalMetrics.Query(query: "q", paths: ["z.md", "a.md"])
        let ranked = ["/d/a.md", "/d/a.md", "/d/a.md"] + (1...9).map { "/d/other\($0).md" } + ["/d/z.md"]
        let result = RetrievalMetrics.score(hits(ranked), for: query)
        // a at rank 1 (its repeats do not take ranks), z at rank 11: past the first ten.
        #expect(abs(result.ndcg - 1 / 1.630930) < 1e-5)
        #expect(result.recall == 0.5)
        #expect(result.reciprocalRank == 1)
    }

    @Test func nothingRelevantFound() {
        let result = RetrievalMetrics.score(
            hits(["/a/x.md", "/a/y.md"]), for: .init(query: "q", paths: ["missing.md"]))
        #expect(result == RetrievalMetrics(ndcg: 0, recall: 0, reciprocalRank: 0))
        #expect(RetrievalMetrics.score([], for: .init(query: "q", paths: ["a.md"])).ndcg == 0)
    }

    @Test func aLabelMatchesWholePathComponentsOnly() {
        let query = RetrievalMetrics.Query(query: "q", paths: ["a.md"])
        #expect(RetrievalMetrics.score(hits(["/n/data.md"]), for: query).recall == 0, "data.md is not a.md")
        #expect(RetrievalMetrics.score(hits(["/n/a.md"]), for: query).recall == 1)
        #expect(RetrievalMetrics.score(hits(["a.md"]), for: query).recall == 1)
    }

    @Test func pagesRestrictWhichHitsOfADocumentCount() {
        let query = RetrievalMetrics.Query(query: "q", paths: ["r.pdf"], pages: [3, 4])
        let ranked = [
            Hit(path: "/p/r.pdf", pages: 7...7), Hit(path: "/p/s.pdf", pages: 1...1),
            Hit(path: "/p/r.pdf", pages: 2...3),
        ]
        let result = RetrievalMetrics.score(ranked, for: query)
        // The page-7 hit is passed over: s.pdf is rank 1, r.pdf (pages 2–3) rank 2.
        #expect(result.reciprocalRank == 0.5)
        #expect(abs(result.ndcg - 0.630930) < 1e-5)
        #expect(
            RetrievalMetrics.mean([result, RetrievalMetrics(ndcg: 1, recall: 0, reciprocalRank: 0.5)])
                == RetrievalMetrics(ndcg: (result.ndcg + 1) / 2, recall: 0.5, reciprocalRank: 0.5))
    }
}
