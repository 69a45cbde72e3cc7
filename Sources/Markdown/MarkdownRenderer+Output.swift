/// The renderer's public calls: each renders into a `RenderBuffer` and hands its bytes on, as text or
/// appended to a byte array (the console's buffer, the benchmark's).
extension MarkdownRenderer {
    /// Takes the next piece of text; returns what can be written now.
    public mutating func feed(_ text: String) -> String {
        if joinUnfinishedLine(text) { return "" }
        return rendering({ $0.feed(text, into: &$1) }, { $0.string })
    }

    /// `feed(_:)`, appending the UTF-8 bytes to `out`.
    public mutating func feed(_ text: String, into out: inout [UInt8]) {
        if joinUnfinishedLine(text) { return }
        rendering({ $0.feed(text, into: &$1) }, { $0.append(to: &out) })
    }

    /// What of the unfinished line can be shown now. The console asks once per network read (a read
    /// brings many deltas), not once per delta: the output is the same, and a line is looked at less often.
    public mutating func settle() -> String {
        rendering({ $0.settle(into: &$1) }, { $0.string })
    }

    /// `settle()`, appending the UTF-8 bytes to `out`.
    public mutating func settle(into out: inout [UInt8]) {
        rendering({ $0.settle(into: &$1) }, { $0.append(to: &out) })
    }

    /// The end of the text: the unfinished line as a whole line, and an open table or code block closed.
    /// Also what Ctrl-C calls: everything received is shown, and no style is left open.
    public mutating func finish() -> String {
        rendering({ $0.finish(into: &$1) }, { $0.string })
    }

    /// `finish()`, appending the UTF-8 bytes to `out`.
    public mutating func finish(into out: inout [UInt8]) {
        rendering({ $0.finish(into: &$1) }, { $0.append(to: &out) })
    }

    /// What `step` renders, handed to `result`: in a buffer on the stack while it fits (a delta's or a
    /// read's output mostly does), so that a call allocates nothing.
    private mutating func rendering<Result>(
        _ step: (inout MarkdownRenderer, inout RenderBuffer) -> Void, _ result: (borrowing RenderBuffer) -> Result
    ) -> Result {
        // (At most 1,024 bytes: more would ask the runtime whether the stack has room, at every call.)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { stack in
            var buffer = RenderBuffer(borrowing: stack, capacity: outputHint)
            step(&self, &buffer)
            // (The most of the last calls, decaying: a small settle between two feeds does not shrink it.)
            outputHint = min(max(buffer.count, outputHint - outputHint / 8, 256), 1 << 20)
            return result(buffer)
        }
    }
}
