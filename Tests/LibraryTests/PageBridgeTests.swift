import Foundation
import GRDB
import Library
import TestSupport
import Testing

/// A paragraph that runs on from one PDF page onto the next is also one chunk across the break, citing both
/// pages; pages that end a sentence get no such chunk, and every page keeps its own chunks.
@Suite("Paragraphs across PDF pages")
struct PageBridgeTests {
    let files: LibraryFixtures
    let extractors = Extractors(environment: ProcessInfo.processInfo.environment)

    init() throws {
        files = try LibraryFixtures()
    }

    @Test func aSentenceCutByThePageBreakIsOneChunkThatCitesBothPages() async throws {
        defer { files.remove() }
        let pdf = try files.write(
            "survey.pdf",
            PDFWriter.text(pages: [
                ["Survey Methods", "", "Every morning the survey team measured the"],
                ["water temperature at the shelf edge before dawn.", "", "Krill were counted in nets."],
                ["A third page ends here."],
            ]))
        let document = try await extractors.read(pdf, as: .pdf)
        let chunks = Chunker(size: 1000, overlap: 150).chunks(of: document)
        #expect(chunks.map(\.page) == [1, 1, 2, 3])
        #expect(chunks.map(\.endPage) == [nil, 2, nil, nil])
        let bridge = chunks[1]
        // poppler's reading order marks no paragraph here (one line's gap), so the bridge is the pages' text
        // up to half a chunk on each side: all of these two short pages.
        #expect(
            bridge.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                == "Survey Methods Every morning the survey team measured the water temperature at the shelf edge before dawn. "
                + "Krill were counted in nets.")
        #expect(document.slice(bridge.start, bridge.end) == bridge.text)
        // Page 2 ends a sentence, so pages 2 and 3 get no bridge.
        #expect(!chunks.contains { $0.page == 2 && $0.endPage != nil })

        let store = try files.openStore()
        #expect(await Ingest(store: store, extractors: extractors).add([pdf]) { _ in } == [.added(chunks: 4, pages: 3)])
        let hits = try await store.search("how was water temperature measured by the team")
        let best = try #require(hits.first)
        #expect(best.page == 1 && best.endPage == 2)
        #expect(best.location == "survey.pdf pp. 1–2")
        let stored = try await store.writer.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk WHERE end_page = 2")
        }
        #expect(stored == 1)
    }

    @Test func theBridgeIsTheParagraphThatRunsOnWhenPopplerMarksParagraphs() async throws {
        defer { files.remove() }
        // Two empty lines' gap: poppler's reading order ends the paragraph with a blank line.
        let pdf = try files.write(
            "paragraphs.pdf",
            PDFWriter.text(pages: [
                ["The first paragraph ends here.", "", "", "Every morning the survey team measured the"],
                ["water temperature before dawn.", "", "", "Krill were counted."],
            ]))
        let document = try await extractors.read(pdf, as: .pdf)
        let bridge = try #require(Chunker().chunks(of: document).first { $0.endPage == 2 })
        #expect(
            bridge.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                == "Every morning the survey team measured the water temperature before dawn.")
        #expect(document.slice(bridge.start, bridge.end) == bridge.text)
    }

    @Test func aLongParagraphKeepsHalfAChunkOfEachSide() async throws {
        defer { files.remove() }
        let words = (1...120).map { "word\($0)" }
        let pdf = try files.write(
            "long.pdf",
            PDFWriter.text(pages: [
                stride(from: 0, to: 60, by: 6).map { words[$0..<$0 + 6].joined(separator: " ") },
                stride(from: 60, to: 120, by: 6).map { words[$0..<$0 + 6].joined(separator: " ") } + ["The end."],
            ]))
        let document = try await extractors.read(pdf, as: .pdf)
        let bridge = try #require(Chunker(size: 200, overlap: 0).chunks(of: document).first { $0.endPage == 2 })
        #expect(bridge.text.unicodeScalars.count <= 200 + 2)
        #expect(bridge.text.contains("word60") && bridge.text.contains("word61"))
        #expect(!bridge.text.contains("word1 ") && !bridge.text.hasPrefix("ord"), "cut at a word")
        #expect(document.slice(bridge.start, bridge.end) == bridge.text)
    }
}
