#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A synchronous server-sent-events decoder that follows the WHATWG parsing rules.
///
/// Feed it the body bytes as they arrive, in chunks of any size (down to one byte); it calls `emit` for
/// every complete event. It accepts LF, CR and CRLF line endings (a CR at the end of one chunk and an LF
/// at the start of the next are one line ending), strips one space after the colon, joins several `data`
/// lines with LF, ignores comment lines and unknown fields, strips a leading byte-order mark, and has no
/// limit on line length. It never decodes text itself, so a UTF-8 sequence split across chunks is joined
/// before anyone reads it. Line ends are found with `memchr`, and a partial line is kept as bytes, so the
/// cost is linear in the input whatever the chunking.
public struct SSEDecoder: Sendable {
    var pendingLine: [UInt8] = []
    var data: [UInt8] = []
    var hasData = false
    var eventName: String?
    var lastEventName: String?
    var lastEventID: String?
    var retry: Int?
    private var previousChunkEndedWithCR = false
    var isFirstLine = true
    /// `pendingLine` is a `data` line's value, its field name cut off as it began (the line runs past
    /// the read it began in): it becomes the event's data as it is, neither copied nor shifted.
    var pendingLineIsData = false
    /// The buffer of the last long event's data, emptied, for the next long line: when the event's user
    /// kept nothing of it (a final event whose repeated text was cut), its pages are already there, so a
    /// stream's four 50 MB final events fault in 50 MB once, not four times.
    var spare: [UInt8] = []

    /// Texts a long `data:` line may repeat (the client and the proxy's tap set them before each push, from
    /// the deltas so far): with some, a data line that grows past `longLine` goes through a `RepeatSkimmer`
    /// as it arrives instead of being held whole, and its event carries the cut bytes and
    /// `ServerSentEvent.repeats`.
    var skimCandidates: [RepeatSkimmer.Candidate] = []
    /// How the skimmer is made (tests make its intervals small).
    var skimThreshold = 64 * 1024
    var skimInterval = RepeatSkimmer.defaultInterval
    private var skimmer: RepeatSkimmer?
    var skimmedRepeats: [RepeatSkimmer.Repeat] = []

    /// Bytes fed so far.
    public private(set) var bytesConsumed = 0
    /// Events dispatched so far.
    public internal(set) var eventsDispatched = 0

    /// Lines longer than this are moved rather than copied when they hold data (64 KB; the fuzz target
    /// makes it small so that the path is fuzzed).
    let longLine: Int
    /// How long a long line is expected to be, when the caller knows (the client: the bytes of the answer's
    /// deltas so far, which the final events repeat): a line that grows past `longLine` gets that much room
    /// at once. Changes no event, only how the line's buffer grows.
    public var longLineHint = 0

    public init() {
        self.init(longLine: 64 * 1024)
    }

    init(longLine: Int) {
        self.longLine = longLine
    }

    /// True when bytes of an unfinished event are waiting for more input.
    public var hasPartialEvent: Bool { !pendingLine.isEmpty || hasData || eventName != nil || skimmer != nil }

    public mutating func push(
        _ bytes: UnsafeRawBufferPointer, emit: (ServerSentEvent) throws -> Void
    ) rethrows {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        bytesConsumed += count
        let dispatchedBefore = eventsDispatched
        var start = 0
        if previousChunkEndedWithCR {
            previousChunkEndedWithCR = false
            if base[0] == 0x0A { start = 1 }
        }
        let hasCR = memchr(base + start, 0x0D, count - start) != nil
        while start < count {
            // Find the next line terminator.
            let end: Int
            if hasCR {
                var index = start
                while index < count, base[index] != 0x0A, base[index] != 0x0D { index += 1 }
                end = index
            } else if let found = memchr(base + start, 0x0A, count - start) {
                end = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            } else {
                end = count
            }
            if end == count {
                if skimmer != nil {
                    skimmer!.push(UnsafeBufferPointer(start: base + start, count: count - start))
                    return
                }
                // Candidates taken before this read lack a delta it completed: then skim from the next read.
                if eventsDispatched == dispatchedBefore, skimLongLine(base: base, from: start, to: count) { return }
                let growing = pendingLine.count + count - start
                let wanted = max(growing, longLineHint)
                if growing > longLine, pendingLine.capacity < wanted {
                    if spare.capacity >= wanted {
                        spare.append(contentsOf: pendingLine)
                        swap(&spare, &pendingLine)
                        spare = []
                    } else if longLineHint > pendingLine.capacity, growing <= longLineHint {
                        // A line long enough to be a final event repeating the answer: room for all of it at
                        // once, rather than doubling up to it (a copy at each step, old and new buffers alive).
                        pendingLine.reserveCapacity(longLineHint)
                    }
                }
                var from = start
                if pendingLine.isEmpty, !hasData, !isFirstLine, count - start > 6,
                    memcmp(base + start, Self.dataPrefix, 5) == 0
                {
                    from += base[start + 5] == UInt8(ascii: " ") ? 6 : 5
                    pendingLineIsData = true
                }
                pendingLine.append(contentsOf: UnsafeBufferPointer(start: base + from, count: count - from))
                return
            }
            if skimmer != nil {
                skimmer!.push(UnsafeBufferPointer(start: base + start, count: end - start))
                endSkim()
            } else if pendingLine.isEmpty {
                try processLine(UnsafeBufferPointer(start: base + start, count: end - start), emit: emit)
            } else {
                pendingLine.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
                try flushPendingLine(emit: emit)
            }
            if base[end] == 0x0D {
                if end + 1 < count {
                    start = base[end + 1] == 0x0A ? end + 2 : end + 1
                } else {
                    previousChunkEndedWithCR = true
                    start = end + 1
                }
            } else {
                start = end + 1
            }
        }
    }

    public mutating func push(
        _ bytes: some Sequence<UInt8>, emit: (ServerSentEvent) throws -> Void
    ) rethrows {
        let array = Array(bytes)
        try array.withUnsafeBytes { raw in try push(raw, emit: emit) }
    }

    /// Ends the stream: a last line without its line ending is processed, and an event whose data is
    /// complete but lacks the closing blank line is still dispatched (as openai-python does).
    public mutating func finish(emit: (ServerSentEvent) throws -> Void) rethrows {
        if skimmer != nil { endSkim() }
        if !pendingLine.isEmpty { try flushPendingLine(emit: emit) }
        try dispatch(emit: emit)
        previousChunkEndedWithCR = false
    }

    /// A line that runs past this read and past `longLine`, the first data line of its event, while there
    /// are texts it may repeat: from here on it goes through a skimmer (true), not into `pendingLine`.
    private mutating func skimLongLine(base: UnsafePointer<UInt8>, from start: Int, to count: Int) -> Bool {
        guard !skimCandidates.isEmpty, !hasData, !isFirstLine, pendingLine.count + count - start > longLine,
            !(eventName?.hasSuffix(".delta") ?? false)  // a long delta is new text, whatever it looks like
        else { return false }
        var from = start
        if pendingLine.isEmpty {
            guard count - start > 6, memcmp(base + start, Self.dataPrefix, 5) == 0 else { return false }
            from += base[start + 5] == UInt8(ascii: " ") ? 6 : 5
        } else if !pendingLineIsData {
            return false
        }
        // A long delta is new text, never skimmed: told by its JSON `type` too (streams without `event:` names).
        var head = Array(pendingLine.prefix(256))
        head.append(contentsOf: UnsafeBufferPointer(start: base + from, count: min(256 - head.count, count - from)))
        if head.withUnsafeBytes({ RepeatSkimmer.namesDelta($0) }) { return false }
        var skimmer = RepeatSkimmer(candidates: skimCandidates, threshold: skimThreshold, interval: skimInterval)
        pendingLine.withUnsafeBufferPointer { skimmer.push($0) }
        skimmer.push(UnsafeBufferPointer(start: base + from, count: count - from))
        pendingLine.removeAll(keepingCapacity: pendingLine.capacity <= 64 * 1024)
        pendingLineIsData = false
        self.skimmer = skimmer
        return true
    }

    /// The skimmed line has ended: its cut bytes are the event's data.
    private mutating func endSkim() {
        guard var skimmer else { return }
        self.skimmer = nil
        let result = skimmer.finish()
        data = result.bytes
        hasData = true
        skimmedRepeats = result.repeats
    }

    static let dataPrefix: [UInt8] = Array("data:".utf8)
}
