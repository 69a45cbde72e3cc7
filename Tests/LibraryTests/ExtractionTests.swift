import Foundation
import Library
import TestSupport
import Testing

/// Each type read from a real file: the text, the page numbers, the heading paths, the title, and chunk
/// offsets that cut exactly each chunk's text out of the extracted text.
@Suite("Extracting documents")
struct ExtractionTests {
    let extractors = Extractors(environment: ProcessInfo.processInfo.environment)

    /// Read as the library reads (on a thread of its own: poppler and tesseract must not hold the pool's).
    func extract(_ url: URL) async throws -> ExtractedDocument {
        try await extractors.read(url, as: try #require(DocumentType(fileExtension: url.pathExtension)))
    }

    /// Every chunk is exactly its slice of the extracted text, and stays inside one segment (a chunk that
    /// runs on across a page break starts in its page's segment and ends in the next page's).
    func expectChunksCutTheText(_ document: ExtractedDocument, size: Int = 60) {
        let chunks = Chunker(size: size, overlap: 15).chunks(of: document)
        #expect(!chunks.isEmpty)
        for chunk in chunks {
            #expect(document.slice(chunk.start, chunk.end) == chunk.text)
            if let endPage = chunk.endPage {
                #expect(
                    document.segments.contains {
                        $0.start <= chunk.start && chunk.start < $0.end && $0.page == chunk.page
                    })
                #expect(
                    document.segments.contains { $0.start < chunk.end && chunk.end <= $0.end && $0.page == endPage })
            } else {
                #expect(
                    document.segments.contains {
                        $0.start <= chunk.start && chunk.end <= $0.end && $0.page == chunk.page
                    })
            }
        }
    }

    @Test func markdownKeepsHeadingPathsAndTheTitle() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let url = try files.write(
            "guide.md",
            "# Guide\n\nIntro text.\n\n## Install\n\nRun setup.\n\n```\n# not a heading\n```\n\n### On macOS\n\nUse brew.\n\n## Use\n\nOpen the console.\n"
        )
        let document = try await extract(url)
        #expect(document.title == "Guide")
        #expect(
            document.segments.map(\.headings) == [
                ["Guide"], ["Guide", "Install"], ["Guide", "Install", "On macOS"], ["Guide", "Use"],
            ])
        let install = try #require(document.segments.first { $0.headings.last == "Install" })
        #expect(document.slice(install.start, install.end) == "## Install\n\nRun setup.\n\n```\n# not a heading\n```")
        expectChunksCutTheText(document, size: 20)
    }

    @Test func htmlDropsScriptsAndStylesAndKeepsHeadings() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let url = try files.write(
            "page.html",
            """
            <html><head><title>The  Page</title><style>p { color: red }</style></head>
            <body><script>var secret = "no";</script><h1>Top</h1><p>First &amp; foremost &lt;here&gt;&#33;</p>
            <h2>Sub</h2><p>Second<br>line</p><!-- a comment --></body></html>
            """)
        let document = try await extract(url)
        #expect(document.title == "The Page")
        #expect(!document.text.contains("secret") && !document.text.contains("color"))
        #expect(document.text.contains("First & foremost <here>!"))
        #expect(document.segments.map(\.headings) == [["Top"], ["Top", "Sub"]])
        expectChunksCutTheText(document)
    }

    @Test func jsonValuesCarryTheirKeyPathsAndCSVRowsTheirHeaders() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let json = try await extract(
            files.write(
                "data.json", #"{"team": {"name": "Core", "members": [{"name": "Ada", "age": 36}]}, "open": true}"#))
        #expect(json.text == "team.name: Core\nteam.members[0].name: Ada\nteam.members[0].age: 36\nopen: true\n")
        let lines = try await extract(files.write("log.jsonl", "{\"event\": \"start\"}\n\n{\"event\": \"stop\"}\n"))
        #expect(lines.text == "[1].event: start\n[3].event: stop\n")
        let csv = try await extract(
            files.write("people.csv", "name,quote\r\nAda,\"Hello, \"\"world\"\"\"\r\nGrace,\"multi\nline\"\r\n"))
        #expect(csv.text == "name: Ada; quote: Hello, \"world\"\nname: Grace; quote: multi\nline\n")
        await #expect(throws: LibraryError.self) { try await extract(files.write("bad.json", "{ not json")) }
    }

    @Test func docxParagraphsHeadingsTablesAndFootnotes() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let document = try await extract(files.docx("report.docx"))
        #expect(document.title == "Quarterly Report")
        #expect(document.text.contains("Revenue grew by twelve percent in the quarter."))
        #expect(document.text.contains("Region | Sales\nNorth | 1200"))
        #expect(document.text.contains("[1] Figures are unaudited."))
        #expect(document.segments.map(\.headings) == [[], ["Revenue"], ["Revenue", "Costs"], ["Footnotes"]])
        expectChunksCutTheText(document)
        let broken = try files.write("broken.docx", "this is not a zip file")
        await #expect { try await extract(broken) } throws: {
            ($0 as? LibraryError)?.message == "is not a DOCX file (not a ZIP archive)"
        }
    }

    /// Text as Word writes it: entities and character references, tabs and breaks as empty elements, a run of
    /// spaces kept; and a part that is not well-formed named with its line and libxml2's reason.
    @Test func docxEntitiesTabsBreaksAndAPartThatIsNotWellFormed() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let w = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#
        let document = try await extract(
            files.docx(
                "text.docx",
                parts: [
                    "word/document.xml": """
                    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                    <w:document \(w)><w:body><w:p><w:r><w:t>Fish &amp; chips &#8211; caf&#xE9;</w:t><w:tab/><w:t>£4</w:t></w:r></w:p>
                    <w:p><w:r><w:t xml:space="preserve">line one</w:t><w:br/><w:t xml:space="preserve">   indented</w:t></w:r></w:p></w:body></w:document>
                    """
                ]))
        #expect(document.text == "Fish & chips – café\t£4\nline one\n   indented\n")
        let broken = try files.docx(
            "broken.docx", parts: ["word/document.xml": "<w:document \(w)><w:body>\n<w:p></w:body></w:document>"])
        await #expect {
            try await extract(broken)
        } throws: {
            let description = ($0 as? LibraryError)?.description ?? ""
            return description.hasPrefix("\(broken.path): its word/document.xml is not well-formed XML (line 2: ")
                && description.contains("mismatch")
        }
    }

    @Test func pdfPagesKeepTheirNumbers() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let document = try await extract(files.pdf())
        #expect(document.pageCount == 2)
        #expect(document.title == "Field Notes")
        #expect(document.segments.map(\.page) == [1, 2])
        let second = document.segments[1]
        #expect(
            document.slice(second.start, second.end)
                == "The colony moved inland in August.\nKrill numbers fell sharply.")
        expectChunksCutTheText(document, size: 40)
    }

    @Test func aTwoColumnPageIsReadColumnByColumn() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        // pdftotext -layout would give "The colony of emperor penguins    Krill numbers fell sharply in": the
        // two columns interleaved line by line, every sentence cut in two.
        let pdf = try files.write(
            "columns.pdf",
            PDFWriter.twoColumns(
                left: [
                    "The colony of emperor penguins", "moved inland during August when", "the sea ice broke up early.",
                ],
                right: [
                    "Krill numbers fell sharply in", "the same year, which the survey", "team linked to warmer water.",
                ]))
        let document = try await extract(pdf)
        let text = document.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            text == "The colony of emperor penguins moved inland during August when the sea ice broke up early. "
                + "Krill numbers fell sharply in the same year, which the survey team linked to warmer water.")
        expectChunksCutTheText(document, size: 60)
    }

    @Test func aScannedPageIsReadWithOCRAndAnImageToo() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let scan = try await extract(files.scannedPDF())
        #expect(scan.segments.map(\.page) == [1])
        #expect(scan.text.contains("INVOICE NUMBER 4711"), "\(scan.text)")
        // The same page as a PNG.
        let png = files.folder.appendingPathComponent("page").path
        try LibraryFixtures.tool("/usr/bin/pdftoppm", ["-r", "150", "-png", "-singlefile", try files.pdf().path, png])
        let image = try await extract(URL(fileURLWithPath: png + ".png"))
        #expect(image.text.contains("Emperor penguins huddle"), "\(image.text)")
    }

    @Test func damagedEncryptedAndEmptyPDFsAreOneLineErrorsNamingTheFile() async throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let damaged = try files.write("damaged.pdf", "%PDF-1.4\nthis is not really a pdf\n")
        await #expect { try await extract(damaged) } throws: { error in
            let error = error as? LibraryError
            return error?.path == damaged.path && error?.message.hasPrefix("is not a readable PDF (") == true
        }
        let locked = try #require(try files.encryptedPDF())
        await #expect { try await extract(locked) } throws: {
            ($0 as? LibraryError)?.description == "\(locked.path): is encrypted: a password is needed to read it"
        }
    }
}
