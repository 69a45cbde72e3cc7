#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a final event's JSON line in pieces as it arrives and cuts out the long strings that repeat a text
/// the deltas brought, so that the line is never held whole (issue 19: the API ends a 50 MB answer with four
/// one-line events of 50 MB each).
///
/// A small synchronous state machine over bytes, fed by `SSEDecoder` once a `data:` line has grown past 64 KB:
/// outside strings it keeps every byte; inside a string it keeps the bytes, and once the string is `threshold`
/// bytes long it fingerprints them (`FingerprintHasher`) and compares, at every `interval` bytes and at each
/// text's whole length, with the fingerprints the deltas' texts had at the same lengths
/// (`Candidate.checkpoints`). Bytes up to a point where a text still matches are dropped, so at most about
/// `interval` bytes of a repeat are held at a time. A string that stops matching keeps the rest of its bytes.
///
/// The result (`Result`) is the line without the dropped bytes, and for each string a span saying where they
/// go back: the first `count` raw bytes of a text's deltas (all of them for a whole repeat; a prefix when the
/// final text goes on past its deltas or departs from them). The line's exact bytes are the cut bytes with
/// each span put back, whatever the JSON (a line cut off inside a string still records its span). The cut
/// bytes are JSON again once each span is put back; a string that departed from its text partway may be cut
/// inside an escape, so only the whole bytes are for parsing (the consumer's view drops such a string's rest:
/// `ServerSentEvent.consumerView`).
struct RepeatSkimmer {
    /// A text the deltas brought: its fingerprint, and its fingerprint after each `interval` raw bytes.
    struct Candidate: Sendable, Hashable {
        var source: RepeatedTextSource
        var fingerprint: LongStrings.Fingerprint
        var checkpoints: [LongStrings.Fingerprint]
    }

    /// One string's repeat: the span, whether the string was the whole text and nothing more, and where the
    /// rest of the string ends in the cut bytes (its closing quote, or the end of a line cut off inside it).
    struct Repeat: Sendable, Hashable {
        var span: RepeatedSpan
        /// The string was the candidate's whole text (it reads as "" once cut).
        var whole: Bool
        /// The string began with the candidate's whole text and went on (what follows is new text).
        var extended: Bool
        /// End of the string's kept bytes in the cut bytes (`span.start..<restEnd` is what followed the repeat).
        var restEnd: Int
    }

    struct Result: Sendable, Hashable {
        var bytes: [UInt8]
        var repeats: [Repeat]
    }

    let candidates: [Candidate]
    /// A string is matched once it is this long (64 KB: shorter ones are kept as they are).
    let threshold: Int
    /// Bytes between two checkpoints (1 MB by default): at most about this much of a repeat is held.
    let interval: Int

    private var out: [UInt8] = []
    private var repeats: [Repeat] = []
    private var inString = false
    /// Where the current string's bytes begin in `out`, and its raw length so far.
    private var stringStart = 0
    private var stringLength = 0
    /// Bytes of the string dropped (a matched prefix), and the backslashes just before that point.
    private var dropped = 0
    private var runAtDropped = 0
    /// Whether the string is being matched, was given up on, and the candidates still matching it.
    private var matching = false
    private var gaveUp = false
    private var alive: [Int] = []
    private var hasher = FingerprintHasher()
    private var hashed = 0
    /// The longest prefix verified so far: its length, candidate and fingerprint, and whether it was the
    /// candidate's whole text.
    private var matched: (count: Int, candidate: Int, fingerprint: LongStrings.Fingerprint, whole: Bool)?

    init(candidates: [Candidate], threshold: Int = 64 * 1024, interval: Int = Self.defaultInterval) {
        self.candidates = candidates
        self.threshold = threshold
        self.interval = interval
    }

    static let defaultInterval = 1 << 20

    /// Whether a JSON line's first bytes name a delta type (`"type":"….delta"`).
    static func namesDelta(_ head: UnsafeRawBufferPointer) -> Bool {
        guard let at = typeKey.withUnsafeBytes({ ByteSearch.find($0, in: head) }) else { return false }
        let value = head[(at + typeKey.count)...]
        let name = value.prefix { $0 != 0x22 }
        return name.count < value.count && name.reversed().starts(with: ".delta".utf8.reversed())
    }

    private static let typeKey = Array(#""type":""#.utf8)

    /// Bytes held so far (the line's kept bytes, and what of a string is not yet verified).
    var heldBytes: Int { out.count }

    /// The next piece of the line (the `data:` field's value, from its first byte).
    mutating func push(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let base = piece.baseAddress, piece.count > 0 else { return }
        let count = piece.count
        var index = 0
        while index < count {
            if !inString {
                guard let found = memchr(base + index, 0x22, count - index) else {
                    out.append(contentsOf: UnsafeBufferPointer(start: base + index, count: count - index))
                    return
                }
                let quote = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                out.append(contentsOf: UnsafeBufferPointer(start: base + index, count: quote + 1 - index))
                openString()
                index = quote + 1
                continue
            }
            let found = memchr(base + index, 0x22, count - index)
            let end = found.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) - base } ?? count
            append(UnsafeBufferPointer(start: base + index, count: end - index))
            guard end < count else { return }
            index = end + 1
            if backslashes(before: out.count) % 2 == 1 {
                append(UnsafeBufferPointer(start: base + end, count: 1))  // an escaped quote: part of the string
            } else {
                closeString()
                out.append(0x22)
            }
        }
    }

    /// The end of the line: the cut bytes and the repeats (a string still open records its repeat too).
    mutating func finish() -> Result {
        if inString { closeString() }
        return Result(bytes: out, repeats: repeats)
    }

    private mutating func openString() {
        inString = true
        stringStart = out.count
        stringLength = 0
        dropped = 0
        runAtDropped = 0
        matching = false
        gaveUp = false
        matched = nil
        hashed = 0
    }

    /// Bytes inside the current string.
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        out.append(contentsOf: bytes)
        stringLength += bytes.count
        if !matching, !gaveUp, stringLength >= threshold, !candidates.isEmpty {
            matching = true
            alive = Array(candidates.indices)
            hasher = FingerprintHasher()
        }
        if matching { advance() }
    }

    /// Consecutive backslashes before `position` in `out` (within the current string, through dropped bytes).
    private func backslashes(before position: Int) -> Int {
        var run = 0
        var index = position
        while index > stringStart, out[index - 1] == 0x5C {
            run += 1
            index -= 1
        }
        return index == stringStart ? run + runAtDropped : run
    }

    /// Hashes the string's bytes up to its current length, stopping at each checkpoint and text length.
    private mutating func advance() {
        while matching, hashed < stringLength {
            var boundary = min(stringLength, (hashed / interval + 1) * interval)
            for index in alive where candidates[index].fingerprint.length > hashed {
                boundary = min(boundary, candidates[index].fingerprint.length)
            }
            let from = stringStart + hashed - dropped
            out.withUnsafeBufferPointer { buffer in
                hasher.update(UnsafeBufferPointer(rebasing: buffer[from..<(from + boundary - hashed)]))
            }
            hashed = boundary
            let atCheckpoint = boundary % interval == 0
            let isLength = alive.contains { candidates[$0].fingerprint.length == boundary }
            guard atCheckpoint || isLength else { continue }
            let fingerprint = hasher.finalize()
            var verified: (candidate: Int, whole: Bool)?
            alive.removeAll { index in
                let candidate = candidates[index]
                if candidate.fingerprint.length == boundary {
                    if candidate.fingerprint == fingerprint { verified = (index, true) }
                    return true  // matched whole (or not): nothing further of it to compare
                }
                guard atCheckpoint else { return false }
                let checkpoint = boundary / interval - 1
                let holds = checkpoint < candidate.checkpoints.count && candidate.checkpoints[checkpoint] == fingerprint
                if holds, verified == nil { verified = (index, false) }
                return !holds
            }
            let position = stringStart + boundary - dropped
            // A checkpoint may fall inside an escape (after its backslash): the drop still stands, since the
            // text goes back byte for byte (`runAtDropped` keeps the count of backslashes before it). Only
            // a text's end is taken where no escape is open, as what follows it is read as new text.
            if let verified, !verified.whole || backslashes(before: position) % 2 == 0 {
                matched = (boundary, verified.candidate, fingerprint, verified.whole)
                runAtDropped = backslashes(before: position)
                out.removeSubrange(stringStart..<position)
                dropped = boundary
            }
            if alive.isEmpty {
                matching = false
                gaveUp = true
            }
        }
    }

    /// The string ends (its closing quote, or the end of the line): its repeat, if a prefix matched.
    private mutating func closeString() {
        inString = false
        matching = false
        guard let matched else { return }
        let candidate = candidates[matched.candidate]
        let whole = matched.whole && matched.count == stringLength
        repeats.append(
            Repeat(
                span: RepeatedSpan(
                    start: stringStart, count: matched.count, source: candidate.source, fingerprint: matched.fingerprint
                ),
                whole: whole, extended: matched.whole && !whole, restEnd: out.count))
        self.matched = nil
    }
}
