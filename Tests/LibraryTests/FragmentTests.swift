import Foundation
import Library
import ResponsesAPI
import TestSupport
import Testing

/// Fragments (`ask -f`) read from real files through the library's extractors, from bytes on stdin and from
/// a loopback server; each distinct text once; kept by hash in a private directory.
@Suite("Fragment reading and keeping")
struct FragmentTests {
    func reader(_ files: LibraryFixtures, fetcher: FragmentFetcher? = nil) -> FragmentReader {
        FragmentReader(
            extractors: Extractors(environment: ProcessInfo.processInfo.environment), fetcher: fetcher,
            directory: files.folder)
    }

    @Test func eachTypeIsReadByItsExtractor() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        try files.write("notes.md", "\n\n# Notes\n\nEmperor penguins huddle.\n\n")
        try files.write(
            "page.html",
            "<html><head><title>T</title><script>var secret = 1;</script></head><body><p>Fish &amp; chips</p></body></html>"
        )
        try files.write("main.swift", "let x = 1\n")
        _ = try files.pdf("report.pdf")
        _ = try files.docx("report.docx")
        let batch = try await reader(files).read(
            ["notes.md", "page.html", "main.swift", "report.pdf", "report.docx"], standardInput: nil)
        let texts = Dictionary(uniqueKeysWithValues: batch.fragments.map { ($0.source, $0) })
        #expect(texts["notes.md"]?.text == "# Notes\n\nEmperor penguins huddle.")
        #expect(texts["notes.md"]?.type == .markdown)
        let html = try #require(texts["page.html"])
        #expect(html.text.contains("Fish & chips") && !html.text.contains("secret") && !html.text.contains("<p>"))
        #expect(texts["main.swift"]?.text == "let x = 1" && texts["main.swift"]?.type == .text)
        let pdf = try #require(texts["report.pdf"])
        #expect(pdf.text.contains("Emperor penguins huddle to survive the winter."))
        #expect(pdf.text.contains("Krill numbers fell sharply."))
        #expect(texts["report.docx"]?.text.contains("Revenue grew by twelve percent in the quarter.") == true)
        #expect(batch.fragments.allSatisfy { $0.sha256.count == 64 })
    }

    /// Two paths with the same text, and one path twice: one fragment each text, the copy reported.
    @Test func theSameTextIsOneFragment() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        try files.write("a.md", "Alpha text.\n")
        try files.write("b.md", "Beta text.\n")
        try files.write("a-copy.md", "Alpha text.\n")
        let batch = try await reader(files).read(["a.md", "b.md", "a-copy.md", "a.md"], standardInput: nil)
        #expect(batch.fragments.map(\.source) == ["a.md", "b.md"])
        #expect(batch.duplicates.map(\.source) == ["a-copy.md"])
        #expect(batch.notes.first?.hasPrefix("fragment a-copy.md: the same text as a.md (sha256 ") == true)
        #expect(batch.byteCount == "Alpha text.".utf8.count + "Beta text.".utf8.count)
    }

    @Test func standardInputIsReadByWhatItIs() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let text = try await reader(files).read(.standardInput, standardInput: Data("piped words\n".utf8))
        #expect(text.source == "stdin" && text.text == "piped words")
        let pdf = try await reader(files).read(
            .standardInput, standardInput: PDFWriter.text(pages: [["A piped PDF page."]]))
        #expect(pdf.type == .pdf && pdf.text.contains("A piped PDF page."))
        await #expect {
            try await reader(files).read(.standardInput, standardInput: Data([0x00, 0xFF, 0x13]))
        } throws: {
            ($0 as? FragmentError)?.description.hasPrefix("fragment stdin: 3 bytes that are not text") == true
        }
    }

    /// A missing file, a damaged PDF and a binary file: errors that name the source, as the user wrote it.
    @Test func unreadableSourcesAreUsageErrorsNamingThem() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        try files.write("damaged.pdf", "%PDF-1.4\nthis is not really a pdf\n")
        try files.write("blob", Data([0x7F, 0x45, 0x4C, 0x46, 0x00, 0x01]))
        let reader = reader(files)
        await #expect { try await reader.read(["missing.md"], standardInput: nil) } throws: { error in
            let error = error as? FragmentError
            return error?.source == "missing.md" && error?.message == "no such file" && error?.exitStatus == .usage
        }
        await #expect { try await reader.read(["damaged.pdf"], standardInput: nil) } throws: { error in
            let error = error as? FragmentError
            return error?.source == "damaged.pdf" && error?.message.hasPrefix("is not a readable PDF (") == true
                && error?.message.contains(files.folder.path) == false
        }
        await #expect { try await reader.read(["blob"], standardInput: nil) } throws: {
            ($0 as? FragmentError)?.userMessage == "fragment blob: 6 bytes that are not text (nor HTML, PDF or DOCX): "
                + "a fragment is a document's text: nothing was sent"
        }
    }

    @Test func blocksCarryTheSourceAndHashAndAreRecognised() {
        let fragment = Fragment(source: #"my "notes" & <more>.md"#, text: "text\n", type: .markdown)
        #expect(fragment.block.hasPrefix(#"<fragment source="my &quot;notes&quot; &amp; &lt;more>.md" sha256=""#))
        #expect(fragment.block.hasSuffix("\">\ntext\n</fragment>"))
        let parsed = try? #require(Fragment.parseBlock(fragment.block))
        #expect(parsed?.source == fragment.source && parsed?.sha256 == fragment.sha256)
        #expect(Fragment.parseBlock("<fragment source=\"x\">text</fragment>") == nil)
        #expect(FragmentSource("-") == .standardInput)
        #expect(FragmentSource("HTTPS://example.com/a") == .url(URL(string: "HTTPS://example.com/a")!))
        #expect(FragmentSource("http.md") == .file("http.md"))
    }

    /// Kept once by hash: one file per distinct text (0600, in a 0700 directory), one index line each.
    @Test func theStoreKeepsEachTextOnce() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let store = FragmentStore(directory: files.folder.appendingPathComponent("data/fragments"))
        let alpha = Fragment(source: "a.md", text: "Alpha", type: .markdown)
        #expect(try store.keep(alpha))
        #expect(try !store.keep(Fragment(source: "a-copy.md", text: "Alpha\n", type: .markdown)))
        #expect(try store.keep(Fragment(source: "b.md", text: "Beta", type: .markdown)))
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        #expect(names.filter { $0.hasSuffix(".txt") }.count == 2 && names.contains("index.jsonl"), "\(names)")
        #expect(store.text(sha256: alpha.sha256) == "Alpha")
        #expect(store.entries().map(\.source) == ["a.md", "b.md"])
        #expect(store.entries().first?.bytes == 5)
        func mode(_ url: URL) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
        }
        #expect(try mode(store.directory) == 0o700)
        #expect(try mode(store.file(for: alpha.sha256)) == 0o600)
    }
}
