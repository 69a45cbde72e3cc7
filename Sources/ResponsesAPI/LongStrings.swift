/// The long strings a stream has already decoded, found again by their raw bytes. The API ends a message
/// with four events that each carry its whole text (`response.output_text.done`, `content_part.done`,
/// `output_item.done`, `response.completed`): with this, the parser builds a 50 MB text once and hands the
/// same (shared, copy-on-write) `String` to the three events that repeat it, after hashing their bytes
/// instead of decoding them. Only strings of `threshold` raw bytes or more are kept, so short ones cost nothing.
///
/// Strings are matched by length and a 128-bit hash of their raw JSON bytes (`FingerprintHasher`; not
/// cryptographic: a server that forged a collision could only make one of its own texts stand in for
/// another of its own texts).
/// One per stream, used by the one loop that decodes it (not for sharing across tasks).
public final class LongStrings {
    /// Strings of this many raw bytes or more are kept (64 KB; the fuzz target makes it small).
    let threshold: Int

    public struct Fingerprint: Sendable, Hashable {
        public var length: Int
        public var first: UInt64
        public var second: UInt64

        public init(length: Int, first: UInt64, second: UInt64) {
            self.length = length
            self.first = first
            self.second = second
        }
    }

    private var known: [Fingerprint: String] = [:]

    /// The texts the deltas have brought, which the long strings of the event being parsed are matched
    /// against (set by the stream before a long event; empty otherwise).
    var candidates: [(source: RepeatedTextSource, fingerprint: Fingerprint)] = []
    /// With `RepeatedText.omitted`, a long string that repeats a candidate is not decoded.
    var omitsRepeats = false
    /// The repeats found in the event being parsed.
    var spans: [RepeatedSpan] = []
    /// Where the delta string's raw bytes are in the event just parsed, when the delta fast path read it
    /// (`.some(nil)`: it has none); nil when the event went another way (the stream then finds them itself).
    var fastDelta: Range<Int>??
    /// The item id of the last delta the fast path read, given back for the next delta with the same bytes.
    var lastItemID = ""
    /// Bytes of answer text the stream's `response.output_text.delta`s have brought so far (`count(_:)`).
    private(set) var deltaTextBytes = 0
    /// False with `RepeatedText.omitted`: a `response.output_text.delta` keeps no `data` (nothing the
    /// consumer reads; and the SSE decoder then reuses the event's buffer for the next one).
    var keepsDeltaBytes = true
    /// Long strings not decoded so far, as repeats of the deltas.
    private(set) var omitted = 0

    /// Counts the text of `event`, the event just parsed, when it is a `response.output_text.delta`: the raw
    /// bytes the fast path found (its strings have no escapes, so they are the text's; no copy of the text out
    /// of the event), else the decoded text's.
    func count(_ event: ResponseStreamEvent) {
        if let raw = fastDelta {
            deltaTextBytes += raw?.count ?? 0
        } else if case .outputTextDelta(let delta) = event.kind {
            deltaTextBytes += delta.delta.utf8.count
        }
    }

    /// The room a final event's line will want: the final events repeat the texts so far as one JSON line each,
    /// which escapes make a little longer.
    var finalLineHint: Int { deltaTextBytes + deltaTextBytes / 16 + 4096 }

    /// Notes a long string (raw bytes from `start`, with this fingerprint) that repeats a candidate; true
    /// when it is to be left undecoded.
    func repeats(_ fingerprint: Fingerprint, at start: Int) -> Bool {
        guard !candidates.isEmpty, let match = candidates.first(where: { $0.fingerprint == fingerprint }) else {
            return false
        }
        spans.append(
            RepeatedSpan(start: start, count: fingerprint.length, source: match.source, fingerprint: fingerprint))
        guard omitsRepeats else { return false }
        omitted += 1
        return true
    }

    public init(threshold: Int = 64 * 1024) {
        self.threshold = threshold
    }

    subscript(fingerprint: Fingerprint) -> String? {
        get { known[fingerprint] }
        set { known[fingerprint] = newValue }
    }

    /// The fingerprint of bytes in one piece (`FingerprintHasher` gives the same for them in pieces).
    static func fingerprint(_ raw: UnsafeBufferPointer<UInt8>) -> Fingerprint {
        var hasher = FingerprintHasher()
        hasher.update(raw)
        return hasher.finalize()
    }
}
