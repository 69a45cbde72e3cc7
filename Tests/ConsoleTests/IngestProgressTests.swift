import Foundation
import Library
import Synchronization
import Testing

@testable import Console

/// What `library add` writes while it works: per-file lines on stdout (failures on stderr), per-page lines
/// with --verbose, and on a terminal a progress line on stderr with the rate and time left, cleared before
/// any other line so the two never mix. The clock is a value the test moves.
@Suite("Progress of library add")
struct IngestProgressTests {
    final class Clock: Sendable {
        let start = ContinuousClock.now
        let offset = Mutex(Duration.zero)
        func advance(_ by: Duration) { offset.withLock { $0 += by } }
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    }

    static func progress(
        _ index: Int, of total: Int, _ path: String, _ outcome: Ingest.Outcome, pages: [Ingest.PageDetail] = []
    ) -> Ingest.Progress {
        Ingest.Progress(index: index, total: total, path: path, outcome: outcome, pages: pages)
    }

    @Test func onATerminalTheLineShowsCountsRateAndTimeLeftAndIsClearedBeforeEachFileLine() {
        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        let clock = Clock()
        let progress = IngestProgress(
            output: output, diagnostics: diagnostics, terminal: true, verbose: false, total: 4,
            now: { clock.now })
        progress.starting(1, path: "/docs/a.pdf")
        #expect(diagnostics.text == "\r\u{1B}[K[0/4] 0 pages, 0 chunks · /docs/a.pdf")
        clock.advance(.seconds(2))
        progress.finished(Self.progress(1, of: 4, "/docs/a.pdf", .added(chunks: 12, pages: 3)))
        #expect(output.text == "[1/4] added /docs/a.pdf (12 chunks, 3 pages)\n")
        // Cleared, then drawn again with the rate (1 file in 2 s) and the time left (3 files at that rate).
        #expect(diagnostics.text.hasSuffix("\r\u{1B}[K\r\u{1B}[K[1/4] 3 pages, 12 chunks · 0.5 files/s · 6 s left"))
        // Within 100 ms of the last drawing, a new file does not redraw; after it, it does.
        let before = diagnostics.text
        progress.starting(2, path: "/docs/b.txt")
        #expect(diagnostics.text == before)
        clock.advance(.milliseconds(150))
        progress.starting(2, path: "/docs/b.txt")
        #expect(diagnostics.text.hasSuffix("· /docs/b.txt"))
        progress.finished(
            Self.progress(2, of: 4, "/docs/b.txt", .failed(LibraryError(path: "/docs/b.txt", "cannot be read"))))
        #expect(diagnostics.text.contains("\r\u{1B}[K[2/4] error: /docs/b.txt: cannot be read\n"))
        progress.finish()
        #expect(diagnostics.text.hasSuffix("\r\u{1B}[K"))
        #expect(!output.text.contains("\u{1B}"), "stdout stays plain")
    }

    @Test func notOnATerminalOnlyPlainLinesAndVerboseAddsOnePerPage() {
        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        let progress = IngestProgress(
            output: output, diagnostics: diagnostics, terminal: false, verbose: true, total: 1)
        progress.starting(1, path: "/docs/scan.pdf")
        progress.finished(
            Self.progress(
                1, of: 1, "/docs/scan.pdf", .added(chunks: 3, pages: 2),
                pages: [
                    .init(page: 1, characters: 1800, chunks: 2, ocr: false),
                    .init(page: 2, characters: 420, chunks: 1, ocr: true),
                ]))
        progress.finish()
        #expect(
            output.text == """
                [1/1] added /docs/scan.pdf (3 chunks, 2 pages)
                    page 1: 1800 characters, 2 chunks
                    page 2: 420 characters, 1 chunk (OCR)

                """)
        #expect(diagnostics.text.isEmpty)
    }

    @Test func longPathsKeepTheirEnd() {
        let path = "/home/someone/" + String(repeating: "deep/", count: 20) + "q3-report.pdf"
        let line = IngestProgress.line(done: 0, total: 9, pages: 0, chunks: 0, elapsed: 0, current: path)
        #expect(line.hasSuffix("/deep/deep/q3-report.pdf"))
        #expect(line.contains("…"))
        #expect(IngestProgress.shortened(path, to: 60).count == 60)
    }
}
