/// What a stream's final events carry in place of a long text the deltas already brought.
///
/// The API ends a message with four events that each repeat its whole text (`response.output_text.done`,
/// `response.content_part.done`, `response.output_item.done`, `response.completed`): a 50 MB answer is
/// 200 MB more on the wire. A consumer that showed the deltas (the console's `ask`) needs nothing of that
/// text again, only the final events' small fields (status, ids, usage, annotations).
///
/// A final event's long string (64 KB of JSON or more) repeats a text when its raw JSON bytes are exactly
/// the deltas' raw bytes one after another: same length, same fingerprint (`FingerprintHasher`), so one
/// pass over its bytes tells, and the event records where it is (`RecordedEvents.Entry.repeats`) for the
/// inspector, which then stores it once.
public enum RepeatedText: Sendable, Hashable {
    /// Every string is decoded: the events and the final `Response` are complete (the default).
    case decoded
    /// A long string that repeats a text the deltas brought is not decoded: it reads as the empty string,
    /// and the event says so (`ResponseStreamEvent.omitsRepeatedText`). Any other long string (a text
    /// that arrived only, or only partly, or differently in the final events) is decoded as usual. The
    /// consumer reads the events' typed fields only: a `response.output_text.delta` keeps no `data` either
    /// (its bytes, like every event's, still reach the recording).
    case omitted
}

/// The deltas a text arrives in: their event type, and the output item and part they belong to.
public struct RepeatedTextSource: Sendable, Hashable {
    /// `response.output_text.delta`, `response.refusal.delta`, `response.reasoning_summary_text.delta` or
    /// `response.reasoning_text.delta`.
    public var deltaType: String
    public var outputIndex: Int
    /// `content_index`, or `summary_index` for a reasoning summary.
    public var partField: String
    public var partIndex: Int

    public init(deltaType: String, outputIndex: Int, partField: String, partIndex: Int) {
        self.deltaType = deltaType
        self.outputIndex = outputIndex
        self.partField = partField
        self.partIndex = partIndex
    }

    /// The source of a text delta event, nil for any other kind (tool-call arguments, inputs and code are
    /// left out: a turn runs its tools from the final items, so those are always decoded and stored whole).
    static func of(_ kind: ResponseStreamEvent.Kind) -> RepeatedTextSource? {
        guard let (tag, delta) = DeltaTexts.textDelta(kind) else { return nil }
        let (deltaType, partField) = DeltaTexts.kinds[Int(tag)]
        return RepeatedTextSource(
            deltaType: deltaType, outputIndex: delta.outputIndex, partField: partField, partIndex: delta.partIndex)
    }

    /// Where the raw bytes of this source's `delta` string are in a delta event's JSON (quotes excluded),
    /// or nil when the event is not one of this source's (another type, item or part) or has no such string.
    public func rawDelta(in data: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let fields = JSONParser.topLevelFields(data), fields.type == deltaType, fields.outputIndex == outputIndex,
            (partField == "summary_index" ? fields.summaryIndex : fields.contentIndex) ?? 0 == partIndex
        else { return nil }
        return fields.delta
    }
}

/// A final event's long string that repeats a text: its raw bytes (quotes excluded) in the event's data,
/// or, in an event recorded without them (`RecordedEvents.Entry.repeats`), where they go back.
public struct RepeatedSpan: Sendable, Hashable {
    public var start: Int
    public var count: Int
    public var source: RepeatedTextSource
    public var fingerprint: LongStrings.Fingerprint

    public init(start: Int, count: Int, source: RepeatedTextSource, fingerprint: LongStrings.Fingerprint) {
        self.start = start
        self.count = count
        self.source = source
        self.fingerprint = fingerprint
    }
}

/// The texts a stream's deltas have brought so far, as their raw JSON bytes' length and fingerprint, and
/// what a stream does with them around each event: `arm` the long-string matcher before parsing, `settle`
/// after (the event cut of its repeats, and its delta added to its text). The client's pipeline and the
/// proxy's tap both go through these two.
struct DeltaTexts {
    /// A final event's bytes without the texts it repeats, and where each goes back.
    typealias Cut = (bytes: [UInt8], repeats: [RepeatedSpan])

    /// The delta kinds whose texts the final events repeat, by tag: their event type and part field.
    static let kinds: [(deltaType: String, partField: String)] = [
        ("response.output_text.delta", "content_index"), ("response.refusal.delta", "content_index"),
        ("response.reasoning_summary_text.delta", "summary_index"), ("response.reasoning_text.delta", "content_index"),
    ]

    /// A text delta event's tag (its position in `kinds`) and delta, nil for any other kind.
    static func textDelta(_ kind: ResponseStreamEvent.Kind) -> (tag: UInt8, delta: ResponseStreamEvent.TextDelta)? {
        switch kind {
        case .outputTextDelta(let delta): (0, delta)
        case .refusalDelta(let delta): (1, delta)
        case .reasoningSummaryTextDelta(let delta): (2, delta)
        case .reasoningTextDelta(let delta): (3, delta)
        default: nil
        }
    }

    /// A text by its tag and indices: cheap to hash per delta.
    private struct Key: Hashable {
        var tag: UInt8
        var output: Int
        var part: Int
    }

    /// A text's source, its raw bytes' fingerprint so far, and the fingerprints at each checkpoint.
    private struct Text {
        var key: Key
        var source: RepeatedTextSource
        var hasher = FingerprintHasher()
        var checkpoints: [LongStrings.Fingerprint] = []
    }

    /// The texts in the order their first deltas came (a stream has a few: found by looking, the last one
    /// first, with no hashing per delta).
    private var texts: [Text] = []
    /// The text the last delta went to.
    private var last = 0
    /// Texts with a secret in one of their delta events: the inspector redacts those events, so the text
    /// could not be put back from them.
    private var withSecrets: Set<RepeatedTextSource> = []

    /// The texts so far for `RepeatSkimmer`, those of `threshold` raw bytes or more whose deltas held no
    /// secret (the inspector redacts those deltas, so such a text must stay in its final events).
    func skimCandidates(threshold: Int) -> [RepeatSkimmer.Candidate] {
        texts.compactMap { text in
            guard text.hasher.count >= threshold, !withSecrets.contains(text.source) else { return nil }
            return RepeatSkimmer.Candidate(
                source: text.source, fingerprint: text.hasher.finalize(), checkpoints: text.checkpoints)
        }
    }

    /// Before an event is parsed: the event to parse instead of `sse`, or nil to parse `sse` itself (nil
    /// rather than `sse` again: returning it was a copy, four retains and releases on every delta). A final
    /// event read in pieces (`RepeatSkimmer`) comes already cut of its repeats and is parsed as its
    /// consumer reads it; any other long one's strings are matched against the texts so far.
    func arm(_ longStrings: LongStrings, for sse: ServerSentEvent) -> ServerSentEvent? {
        longStrings.spans = []
        guard sse.repeats.isEmpty else {
            longStrings.candidates = []
            return sse.consumerView
        }
        longStrings.candidates =
            sse.data.count > longStrings.threshold && !texts.isEmpty
            ? texts.map { ($0.source, $0.hasher.finalize()) } : []
        return nil
    }

    /// After an event is parsed: its bytes without the texts it repeats (nil when it repeats none), the
    /// same when the recording may take them so (nil: record it whole, because the API key occurs in it or
    /// in one of the texts' deltas, which the inspector redacts), and its own delta added to its text. A
    /// final event read in pieces is recorded as it was cut (`ServerSentEvent.recordedCut`).
    mutating func settle(
        _ kind: ResponseStreamEvent.Kind?, event sse: ServerSentEvent, longStrings: LongStrings,
        secrets: ByteSearch.Needles
    ) -> (cut: Cut?, recordable: Cut?) {
        guard sse.repeats.isEmpty else { return (nil, sse.recordedCut(secrets: secrets)) }
        let data = sse.data
        let spans = longStrings.spans
        longStrings.candidates = []
        longStrings.spans = []
        let cut = spans.isEmpty ? nil : Self.cut(spans, from: data)
        // A key cut in two by the deltas shows whole in the final event, so the event is looked through too.
        let recordable =
            cut != nil && spans.allSatisfy({ !withSecrets.contains($0.source) })
                && !data.withUnsafeBytes({ secrets.occur(in: $0) }) ? cut : nil
        if let kind {
            data.withUnsafeBufferPointer { observe(kind, data: $0, rawDelta: longStrings.fastDelta, secrets: secrets) }
        }
        return (cut, recordable)
    }

    /// Adds a delta event's raw `delta` bytes to its text's fingerprint (where they are: `rawDelta`, when the
    /// delta fast path found it, else found here).
    private mutating func observe(
        _ kind: ResponseStreamEvent.Kind, data: UnsafeBufferPointer<UInt8>, rawDelta: Range<Int>??,
        secrets: ByteSearch.Needles
    ) {
        guard let (tag, delta) = Self.textDelta(kind), let range = rawDelta ?? JSONParser.deltaRange(data) else {
            return
        }
        let key = Key(tag: tag, output: delta.outputIndex, part: delta.partIndex)
        if last >= texts.count || texts[last].key != key {
            if let found = texts.firstIndex(where: { $0.key == key }) {
                last = found
            } else {
                guard let source = RepeatedTextSource.of(kind) else { return }
                texts.append(Text(key: key, source: source))
                last = texts.count - 1
            }
        }
        Self.feed(&texts[last], UnsafeBufferPointer(rebasing: data[range]), interval: RepeatSkimmer.defaultInterval)
        // The whole event, not only its text: a key anywhere in it gets the stored delta redacted, and a final
        // event cut of this text could then not be put back from it.
        if !secrets.isEmpty, secrets.occur(in: UnsafeRawBufferPointer(data)) {
            withSecrets.insert(texts[last].source)
        }
    }

    /// A delta's raw bytes into its text's fingerprint, stopping at each checkpoint to keep the fingerprint
    /// there (for `RepeatSkimmer`).
    private static func feed(_ text: inout Text, _ bytes: UnsafeBufferPointer<UInt8>, interval: Int) {
        var from = 0
        while from < bytes.count {
            let upTo = min(bytes.count, from + interval - text.hasher.count % interval)
            text.hasher.update(UnsafeBufferPointer(rebasing: bytes[from..<upTo]))
            if text.hasher.count % interval == 0 { text.checkpoints.append(text.hasher.finalize()) }
            from = upTo
        }
    }

    /// A final event's bytes without the texts it repeats (each string left empty, so still JSON), and
    /// where each text goes back (`RepeatedSpan.start` in the cut bytes).
    static func cut(_ spans: [RepeatedSpan], from data: [UInt8]) -> Cut? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count - spans.reduce(0) { $0 + $1.count })
        var repeats: [RepeatedSpan] = []
        var from = 0
        for span in spans.sorted(by: { $0.start < $1.start }) {
            guard span.start >= from, span.start + span.count <= data.count else { return nil }
            bytes.append(contentsOf: data[from..<span.start])
            var moved = span
            moved.start = bytes.count
            repeats.append(moved)
            from = span.start + span.count
        }
        bytes.append(contentsOf: data[from...])
        return (bytes, repeats)
    }
}
