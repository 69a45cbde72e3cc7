import Foundation
import GRDB
import Library
import TestSupport
import Testing

/// Hostile documents against the resource caps, with real files: DOCX ZIP bombs (one whose headers lie),
/// text and chunks past their caps, a PDF past the page cap, a scan whose OCR takes too long. Each is
/// refused by name with the cap's name, value and flag, and the rest of the batch is added.
@Suite("Resource caps on extraction")
struct ResourceCapsTests {
    let files: LibraryFixtures

    init() throws {
        files = try LibraryFixtures()
    }

    func extract(_ url: URL, caps: ResourceCaps) async throws -> ExtractedDocument {
        var extractors = Extractors(environment: ProcessInfo.processInfo.environment)
        extractors.caps = caps
        return try await extractors.read(url, as: try #require(DocumentType(fileExtension: url.pathExtension)))
    }

    /// The refusal `extract` throws for `url`, or nil (recorded as an issue) when it did not throw one.
    func refusal(_ url: URL, caps: ResourceCaps) async -> LibraryError? {
        do {
            let document = try await extract(url, caps: caps)
            Issue.record("\(url.lastPathComponent) was read (\(document.text.utf8.count) bytes of text), not refused")
            return nil
        } catch let error as LibraryError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    func ingest(caps: ResourceCaps, chunker: Chunker = Chunker()) throws -> Ingest {
        let store = try files.openStore()
        var extractors = Extractors(environment: ProcessInfo.processInfo.environment)
        extractors.caps = caps
        return Ingest(store: store, extractors: extractors, chunker: chunker)
    }

    @Test func aDOCXBombIsRefusedByTheSizeItsArchiveDeclares() async throws {
        defer { files.remove() }
        let bomb = try files.deflatedDOCX("bomb.docx", xml: LibraryFixtures.documentXML(bytes: 16 << 20))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        #expect(size < 200_000, "16 MB deflated to \(size) bytes")
        let error = try #require(await refusal(bomb, caps: ResourceCaps(zipMemberBytes: 1 << 20)))
        #expect(error.path == bomb.path)
        #expect(error.cap == .zipMember)
        #expect(error.message.contains("word/document.xml"))
        #expect(error.message.contains("library.max_zip_member_mb (the inflated size of one ZIP member: 1 MB)"))
        #expect(error.message.contains("raise it with --max-zip-member-mb"))
        #expect(error.message.contains("its header"))
    }

    @Test func aZIPMemberWhoseHeadersUnderstateItsSizeIsStoppedWhileInflating() async throws {
        defer { files.remove() }
        let liar = try files.lyingDOCX("liar.docx", xml: LibraryFixtures.documentXML(bytes: 16 << 20), declared: 4096)
        let error = try #require(await refusal(liar, caps: ResourceCaps(zipMemberBytes: 1 << 20)))
        #expect(error.path == liar.path)
        #expect(error.cap == .zipMember)
        #expect(error.message.contains("inflates to more than 1 MB"))
        #expect(error.message.contains("its headers said 4096 bytes"))
        // The batch goes on past both bombs.
        let bomb = try files.deflatedDOCX("bomb.docx", xml: LibraryFixtures.documentXML(bytes: 16 << 20))
        let good = try files.write("good.md", "# Good\n\nSea otters hold hands while they sleep.\n")
        let outcomes = await try ingest(caps: ResourceCaps(zipMemberBytes: 1 << 20)).add([liar, bomb, good]) { _ in }
        try #require(outcomes.count == 3)
        #expect(outcomes[2] == .added(chunks: 1, pages: nil))
        for outcome in outcomes.prefix(2) {
            guard case .failed(let failure) = outcome else {
                Issue.record("not refused: \(outcome)")
                continue
            }
            #expect(failure.cap == .zipMember)
        }
    }

    @Test func textPastTheCapIsRefusedForDOCXAndPlainText() async throws {
        defer { files.remove() }
        let caps = ResourceCaps(textBytes: 1 << 20)
        let docx = try files.deflatedDOCX("long.docx", xml: LibraryFixtures.documentXML(bytes: 3 << 20))
        let error = try #require(await refusal(docx, caps: caps))
        #expect(error.cap == .text)
        #expect(error.path == docx.path)
        #expect(
            error.message.contains(
                "library.max_text_mb (the text extracted from one file: 1 MB); raise it with --max-text-mb"))
        let text = try files.write("long.txt", String(repeating: "Puffins nest in burrows on cliffs. ", count: 60_000))
        #expect(await refusal(text, caps: caps)?.cap == .text)
        let html = try files.write(
            "long.html", "<p>" + String(repeating: "Puffins nest in burrows &amp; cliffs. ", count: 60_000) + "</p>")
        #expect(await refusal(html, caps: caps)?.cap == .text)
        // Under the cap, the same kinds are read.
        let short = try files.deflatedDOCX("short.docx", xml: LibraryFixtures.documentXML(bytes: 100_000))
        #expect(try await extract(short, caps: caps).text.contains("otters hold hands"))
    }

    @Test func chunksPastTheCapAreRefusedAndTheOthersAdded() async throws {
        defer { files.remove() }
        let long = try files.write(
            "long.txt",
            (1...60).map { "Paragraph \($0) tells of terns crossing the ocean twice a year." }.joined(separator: "\n\n")
        )
        let short = try files.write("short.txt", "Short notes about kittiwakes.\n")
        let ingest = try ingest(caps: ResourceCaps(chunks: 5), chunker: Chunker(size: 200, overlap: 30))
        let outcomes = await ingest.add([long, short]) { _ in }
        try #require(outcomes.count == 2)
        #expect(outcomes[1] == .added(chunks: 1, pages: nil))
        guard case .failed(let error) = outcomes[0] else {
            Issue.record("not refused: \(outcomes[0])")
            return
        }
        #expect(error.path == long.path)
        #expect(error.cap == .chunks)
        #expect(
            error.message.contains(
                "library.max_chunks (the chunks cut from one file: 5 chunks); raise it with --max-chunks"))
        let stored = try await ingest.store.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM chunk") }
        #expect(stored == 1)
        #expect(try await ingest.store.statistics().failures.map(\.path) == [long.path])
    }

    @Test func aPDFPastThePageCapIsRefusedBeforeItsPagesAreRead() async throws {
        defer { files.remove() }
        let pages = (1...6).map { ["Page \($0) of the survey of gannet colonies."] }
        let pdf = try files.write("survey.pdf", PDFWriter.text(pages: pages))
        let error = try #require(await refusal(pdf, caps: ResourceCaps(pdfPages: 5)))
        #expect(error.path == pdf.path)
        #expect(error.cap == .pdfPages)
        #expect(error.message.contains("it has 6 pages"))
        #expect(
            error.message.contains(
                "library.max_pdf_pages (the pages of one PDF: 5 pages); raise it with --max-pdf-pages"))
        #expect(try await extract(pdf, caps: ResourceCaps(pdfPages: 6)).pageCount == 6)
    }

    @Test func ocrPastItsTimeIsRefusedNamingThePage() async throws {
        defer { files.remove() }
        let scan = try files.scannedPDF()
        let error = try #require(await refusal(scan, caps: ResourceCaps(ocrPageTime: .milliseconds(1))))
        #expect(error.path == scan.path)
        #expect(error.page == 1)
        #expect(error.cap == .ocrPageTime)
        #expect(error.description.contains("page 1: refused"))
        #expect(error.message.contains("raise it with --ocr-page-seconds or library.ocr_page_seconds"))
    }
}
