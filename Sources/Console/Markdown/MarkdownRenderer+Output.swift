/// The renderer's public calls: each renders into a `RenderBuffer` and hands its bytes on, as text or
/// appended to a byte array (the console's buffer, the benchmark's).
extension MarkdownRenderer {
    /// Takes the next piece of text; returns what can be written now.
    public mutating func feed(_ text: String) -> String {
        var out = RenderBuffer()
        feed(text, into: &out)
        return out.string
    }

    /// `feed(_:)`, appending the UTF-8 bytes to `out`.
    public mutating func feed(_ text: String, into out: inout [UInt8]) {
        var buffer = RenderBuffer()
        feed(text, into: &buffer)
        buffer.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// What of the unfinished line can be shown now. The console asks once per network read (a read
    /// brings many deltas), not once per delta: the output is the same, and a line is looked at less often.
    public mutating func settle() -> String {
        var out = RenderBuffer()
        settle(into: &out)
        return out.string
    }

    /// `settle()`, appending the UTF-8 bytes to `out`.
    public mutating func settle(into out: inout [UInt8]) {
        var buffer = RenderBuffer()
        settle(into: &buffer)
        buffer.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }

    /// The end of the text: the unfinished line as a whole line, and an open table or code block closed.
    /// Also what Ctrl-C calls: everything received is shown, and no style is left open.
    public mutating func finish() -> String {
        var out = RenderBuffer()
        finish(into: &out)
        return out.string
    }

    /// `finish()`, appending the UTF-8 bytes to `out`.
    public mutating func finish(into out: inout [UInt8]) {
        var buffer = RenderBuffer()
        finish(into: &buffer)
        buffer.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }
}
