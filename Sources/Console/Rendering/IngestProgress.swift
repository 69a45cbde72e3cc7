import Foundation
import Library
import Synchronization
import Untrusted

/// What `library add` and `sync` say while they work: one line per file (stdout; failures on stderr),
/// with `verbose` one more per page, and on a terminal a progress line on stderr redrawn in place at most
/// ten times a second:
/// `[12/40] 31 pages, 210 chunks · 4.1 files/s · 7 s left · notes/q3.pdf`
/// The progress line is cleared before any other line is written, so the two never mix.
final class IngestProgress: Sendable {
    let output: any OutputSink
    let diagnostics: any OutputSink
    let terminal: Bool
    let verbose: Bool
    let total: Int
    let now: @Sendable () -> ContinuousClock.Instant
    private let state: Mutex<State>

    struct State {
        var start: ContinuousClock.Instant
        var lastDraw: ContinuousClock.Instant?
        var done = 0
        var pages = 0
        var chunks = 0
        var current = ""
        var drawn = false
    }

    init(
        output: any OutputSink, diagnostics: any OutputSink, terminal: Bool, verbose: Bool, total: Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.output = output
        self.diagnostics = diagnostics
        self.terminal = terminal
        self.verbose = verbose
        self.total = total
        self.now = now
        self.state = Mutex(State(start: now()))
    }

    /// A file is about to be read: the progress line names it.
    func starting(_ index: Int, path: String) {
        let line = state.withLock { state -> TerminalText? in
            state.current = path
            return draw(&state, force: index == 1)
        }
        if let line { diagnostics.write(line) }
    }

    /// A file is done: its line (and its pages' with `verbose`), then the progress line again.
    func finished(_ progress: Ingest.Progress) {
        var lines =
            "[\(progress.index)/\(progress.total)] \(LibraryRunner.describe(progress.outcome, path: progress.path))\n"
        if verbose {
            for page in progress.pages { lines += "    " + Self.describe(page) + "\n" }
        }
        let failed: Bool = if case .failed = progress.outcome { true } else { false }
        let (clear, redraw) = state.withLock { state -> (Bool, TerminalText?) in
            state.done = progress.index
            state.current = ""
            if case .added(let chunks, let pages) = progress.outcome {
                state.chunks += chunks
                state.pages += pages ?? 0
            }
            if case .updated(let chunks, let pages) = progress.outcome {
                state.chunks += chunks
                state.pages += pages ?? 0
            }
            if case .rechunked(let chunks, let pages, _) = progress.outcome {
                state.chunks += chunks
                state.pages += pages ?? 0
            }
            let clear = state.drawn
            state.drawn = false
            return (clear, draw(&state, force: true))
        }
        if clear { diagnostics.write("\r\u{1B}[K" as TerminalText) }
        (failed ? diagnostics : output).write(lines)
        if let redraw { diagnostics.write(redraw) }
    }

    /// Clears the progress line before the summary.
    func finish() {
        let clear = state.withLock { state -> Bool in
            defer { state.drawn = false }
            return state.drawn
        }
        if clear { diagnostics.write("\r\u{1B}[K" as TerminalText) }
    }

    /// The progress line, when it is time to draw it (always when `force`; else at most every 100 ms).
    private func draw(_ state: inout State, force: Bool) -> TerminalText? {
        guard terminal else { return nil }
        let now = now()
        if !force, let last = state.lastDraw, now - last < .milliseconds(100) { return nil }
        state.lastDraw = now
        state.drawn = true
        return "\r\u{1B}[K"
            + TerminalText(
                Self.line(
                    done: state.done, total: total, pages: state.pages, chunks: state.chunks,
                    elapsed: ProgressLine.seconds(now - state.start), current: state.current))
    }

    /// `[12/40] 31 pages, 210 chunks · 4.1 files/s · 7 s left · path` (no rate before the first file is done).
    static func line(done: Int, total: Int, pages: Int, chunks: Int, elapsed: Double, current: String) -> String {
        var parts = [
            "[\(done)/\(total)] \(pages) page\(pages == 1 ? "" : "s"), \(chunks) chunk\(chunks == 1 ? "" : "s")"
        ]
        if done > 0, elapsed > 0 {
            let rate = Double(done) / elapsed
            parts.append(String(format: "%.1f files/s", rate))
            parts.append("\(Int((Double(total - done) / rate).rounded())) s left")
        }
        if done < total, !current.isEmpty { parts.append(Self.shortened(current, to: 60)) }
        return parts.joined(separator: " · ")
    }

    /// A long path keeps its end: `…/reports/2026/q3.pdf`.
    static func shortened(_ path: String, to limit: Int) -> String {
        guard path.count > limit else { return path }
        return "…" + path.suffix(limit - 1)
    }

    static func describe(_ page: Ingest.PageDetail) -> String {
        let place = page.page.map { "page \($0)" } ?? "text"
        return "\(place): \(page.characters) characters, \(page.chunks) chunk\(page.chunks == 1 ? "" : "s")"
            + (page.ocr ? " (OCR)" : "")
    }
}
