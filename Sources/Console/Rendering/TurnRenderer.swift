import Foundation
import Markdown
import ResponsesAPI
import Untrusted

/// Turns response events into terminal text as they arrive: the answer (wrapped to the terminal),
/// reasoning summaries dimmed, one timeline line per tool call, refusals marked, `[n]` citation markers
/// with footnotes at the end, and a usage line. Anything it does not know is passed over without
/// breaking the output.
struct TurnRenderer: Sendable {
    let output: any OutputSink
    let options: RenderOptions
    /// The output text shown so far (kept when the turn is cancelled or fails).
    var text = ""
    /// Paths of the images saved during the turn.
    private(set) var savedImages: [String] = []

    private var writer: WrappingWriter
    /// The answer's Markdown renderer, when `options.markdown`: text in the answer's lane goes through it.
    private var markdown: MarkdownRenderer?
    /// Text not yet written to `output`: written by `flush` (the runner calls it after each network
    /// read's events), so a fast stream costs one write per read, not one per delta.
    private var buffer = ""
    private var lane = Lane.none
    var footnotes: [Footnote] = []
    /// The text of each output_text part so far, by "item:content", for citation spans.
    var partTexts: [String: String] = [:]
    /// How many UTF-8 bytes of each output_text part have been shown, so that a part whose text arrives
    /// only (or only partly) in its `.done` event or the terminal response is shown once, whole.
    var shownBytes = ShownBytes()
    /// The session's spending, to which each request's usage is added (its cost is shown on the usage line,
    /// with the session's total once there is more than one request); nil shows no cost.
    var spending: SessionSpending?
    /// When the first token came, from `startedAt`. A `Duration`, not an instant: the standard library's
    /// instants are resilient, so an optional one is compared and copied through its type's metadata
    /// (about 300 instructions, on every delta).
    var firstTokenAfter: Duration?
    /// A reasoning summary part ended: the next one starts a new paragraph.
    private var reasoningParagraphEnded = false
    /// Last: a field after one of resilient size has its offset computed at run time.
    let startedAt = ContinuousClock.now

    enum Lane { case none, reasoning, text, refusal, timeline }

    struct Footnote {
        var key: String
        var label: String
        var quote: String?
        /// A command that fetches what the note names (a code interpreter's file), on a line of its own.
        var command: String?
    }

    init(output: any OutputSink, options: RenderOptions = .plain) {
        self.output = output
        self.options = options
        self.writer = WrappingWriter(width: options.width)
        if options.markdown {
            self.markdown = MarkdownRenderer(
                options: .init(width: options.width ?? 80, colors: options.colors, hyperlinks: options.hyperlinks))
        }
    }

    /// A network read's events, read where they are (see `TurnRendering.render(batch:)`).
    mutating func render(batch events: UnsafeBufferPointer<ResponseStreamEvent>) {
        for index in events.indices {
            // A delta's payload bound alone: the event read whole would be a copy of all of it.
            if case .outputTextDelta(let delta) = events[index].kind {
                showText(delta.delta, part: PartKey(item: delta.itemID, part: delta.partIndex))
            } else {
                show(events[index])
            }
        }
    }

    mutating func render(_ event: ResponseStreamEvent) { show(event) }

    private mutating func show(_ event: borrowing ResponseStreamEvent) {
        switch event.kind {
        case .outputTextDelta(let delta):
            showText(delta.delta, part: PartKey(item: delta.itemID, part: delta.partIndex))
        case .outputTextDone(let done) where event.omitsRepeatedText:
            // The text less what the deltas brought (`RepeatedText.omitted`): "" when it only repeated them,
            // else what followed them, which is new.
            if !done.text.isEmpty { showText(done.text, part: PartKey(item: done.itemID, part: done.partIndex)) }
        case .outputTextDone(let done):
            catchUp(PartKey(item: done.itemID, part: done.partIndex), fullText: done.text)
        case .responseCompleted(let response), .responseIncomplete(let response), .responseFailed(let response):
            catchUp(response)
        case .outputTextAnnotationAdded(let added) where options.citations:
            let number = footnote(
                for: added.annotation, partText: partTexts["\(added.itemID):\(added.contentIndex)"] ?? "")
            if let number { write("[\(number)]", wrap: false) }
        case .refusalDelta(let delta):
            noteFirstToken()
            if lane != .refusal {
                enter(.refusal)
                write(styled("[refusal] ", .yellow), wrap: false)
            }
            write(styled(shown(delta.delta), .yellow), wrap: true)
        case .reasoningSummaryTextDelta(let delta) where options.showExtras && options.showReasoning:
            noteFirstToken()
            if lane == .reasoning, reasoningParagraphEnded {
                writer.endLine(into: &buffer)
                emit("\n")
            }
            reasoningParagraphEnded = false
            enter(.reasoning)
            write(styled(shown(delta.delta), .dim), wrap: true)
        case .reasoningSummaryPartDone where options.showExtras && options.showReasoning && lane == .reasoning:
            reasoningParagraphEnded = true
        case .outputItemDone(let done) where options.showExtras:
            if let line = Self.timelineLine(
                for: done.item, savingImagesTo: options.imagesDirectory, saved: &savedImages)
            {
                timeline(line)
            }
        case .error(let payload) where options.showExtras:
            timeline("[error] " + (payload.code.map { "\($0): " } ?? "") + payload.message, color: .red)
        default:
            break
        }
    }

    /// Shows a whole response at once (non-streamed turns), with the same extras.
    mutating func render(response: Response) {
        noteFirstToken()
        for item in response.output {
            switch item {
            case .reasoning(let reasoning)
            where options.showExtras && options.showReasoning && !reasoning.summary.isEmpty:
                enter(.reasoning)
                write(styled(shown(reasoning.summary.joined(separator: "\n\n")), .dim), wrap: true)
            case .message(let message):
                for part in message.content {
                    switch part {
                    case .outputText(let output):
                        enter(.text)
                        write(output.text, wrap: true)
                        if options.keepsText { text += output.text }
                        if options.citations {
                            let markers = output.annotations.compactMap { footnote(for: $0, partText: output.text) }
                            if !markers.isEmpty { write(markers.map { "[\($0)]" }.joined(), wrap: false) }
                        }
                    case .refusal(let refusal):
                        enter(.refusal)
                        write(styled("[refusal] " + shown(refusal), .yellow), wrap: true)
                    default: break
                    }
                }
            default:
                if options.showExtras,
                    let line = Self.timelineLine(
                        for: item, savingImagesTo: options.imagesDirectory, saved: &savedImages)
                {
                    timeline(line)
                }
            }
        }
        flush()
    }

    /// Ends the turn: the line is finished, then the footnotes and (when `response` has usage) the
    /// usage line.
    mutating func finish(response: Response?) {
        finishLine()
        if !footnotes.isEmpty {
            emit("\n")
            for (index, note) in footnotes.enumerated() {
                emit("[\(index + 1)] \(shown(note.label))\n")
                if let quote = note.quote, !quote.isEmpty { emit(styled("    “\(shown(quote))”", .dim) + "\n") }
                if let command = note.command { emit("    " + styled(shown(command), .cyan) + "\n") }
            }
            footnotes.removeAll()
        }
        if let usage = response?.usage {
            let cost = spending?.add(model: response?.model, usage: usage)
            if options.showExtras, options.showUsage { emit(styled(usageLine(usage, cost: cost), .dim) + "\n") }
        }
        flush()
    }

    /// Ends the current line if text was written without a final newline.
    mutating func finishLine() {
        endMarkdown()
        writer.flush(into: &buffer)
        writer.endLine(into: &buffer)
        lane = .none
        flush()
    }

    // MARK: Pieces

    mutating func noteFirstToken() {
        if firstTokenAfter == nil { firstTokenAfter = ContinuousClock.now - startedAt }
    }

    /// Starts `new` on a fresh line (with a blank line between reasoning and the answer).
    mutating func enter(_ new: Lane) {
        guard new != lane else { return }
        endMarkdown()
        writer.flush(into: &buffer)
        if writer.column > 0 { writer.endLine(into: &buffer) }
        if lane == .reasoning, new == .text { emit("\n") }
        lane = new
    }

    mutating func timeline(_ line: String, color: Color = .cyan) {
        enter(.timeline)
        emit(styled(shown(line), color) + "\n")
    }

    /// Leaving the answer's text: what the Markdown renderer holds (the last line, an open table or code
    /// block) is written, and it starts afresh for the next text.
    mutating func endMarkdown() {
        guard lane == .text, markdown != nil else { return }
        buffer += markdown!.finish()
    }

    mutating func write(_ text: String, wrap: Bool) {
        if lane == .text, markdown != nil {
            buffer += markdown!.feed(text)
            if buffer.utf8.count >= 1 << 16 { flush() }
            return
        }
        // The answer's text without rendering: shown here (the other lanes' text is shown by their callers).
        let text = lane == .text ? shown(text) : text
        if wrap { writer.write(text, into: &buffer) } else { writer.writeUnwrapped(text, into: &buffer) }
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    mutating func emit(_ text: String) {
        writer.writeUnwrapped(text, into: &buffer)
    }

    /// Writes out what is buffered.
    mutating func flush() {
        if lane == .text, markdown != nil { buffer += markdown!.settle() }
        guard !buffer.isEmpty else { return }
        // With a width, what the model sent was cleaned as it was rendered (`shown`, the Markdown renderer): the
        // buffer is the renderer's own styles around cleaned text. Without one (plain options) it is the exact
        // text, and the sink decides: cleaned on a terminal, exact to a pipe.
        if options.width != nil { output.write(TerminalText(composed: buffer)) } else { output.write(buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    enum Color: String {
        case dim = "2"
        case cyan = "36"
        case yellow = "33"
        case red = "31"
    }

    func styled(_ text: String, _ color: Color) -> String {
        options.colors && !text.isEmpty ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
