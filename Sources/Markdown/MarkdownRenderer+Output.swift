/// The renderer's public calls: each renders into a `RenderBuffer` and hands its bytes on, as text or
/// appended to a byte array (the console's buffer, the benchmark's).
extension MarkdownRenderer {
    /// Takes the next piece of text; returns what can be written now.
    public mutating func feed(_ text: String) -> String {
        rendering { $0.feed(text, into: &$1) }.string
    }

    /// `feed(_:)`, appending the UTF-8 bytes to `out`.
    public mutating func feed(_ text: String, into out: inout [UInt8]) {
        rendering { $0.feed(text, into: &$1) }.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// What of the unfinished line can be shown now. The console asks once per network read (a read
    /// brings many deltas), not once per delta: the output is the same, and a line is looked at less often.
    public mutating func settle() -> String {
        rendering { $0.settle(into: &$1) }.string
    }

    /// `settle()`, appending the UTF-8 bytes to `out`.
    public mutating func settle(into out: inout [UInt8]) {
        rendering { $0.settle(into: &$1) }.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// The end of the text: the unfinished line as a whole line, and an open table or code block closed.
    /// Also what Ctrl-C calls: everything received is shown, and no style is left open.
    public mutating func finish() -> String {
        rendering { $0.finish(into: &$1) }.string
    }

    /// `finish()`, appending the UTF-8 bytes to `out`.
    public mutating func finish(into out: inout [UInt8]) {
        rendering { $0.finish(into: &$1) }.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// What `step` renders, in a buffer of its own.
    private mutating func rendering(_ step: (inout MarkdownRenderer, inout RenderBuffer) -> Void) -> RenderBuffer {
        var buffer = RenderBuffer(capacity: outputHint)
        step(&self, &buffer)
        // (The most of the last calls, decaying: a small settle between two feeds does not shrink it.)
        outputHint = min(max(buffer.count, outputHint - outputHint / 8, 256), 1 << 20)
        return buffer
    }
}
