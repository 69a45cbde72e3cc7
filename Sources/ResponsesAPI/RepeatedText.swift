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
    /// that arrived only, or only partly, or differently in the final events) is decoded as usual.
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
        switch kind {
        case .outputTextDelta(let delta):
            RepeatedTextSource(deltaType: "response.output_text.delta", outputIndex: delta.outputIndex, partField: "content_index", partIndex: delta.partIndex)
        case .refusalDelta(let delta):
            RepeatedTextSource(deltaType: "response.refusal.delta", outputIndex: delta.outputIndex, partField: "content_index", partIndex: delta.partIndex)
        case .reasoningSummaryTextDelta(let delta):
            RepeatedTextSource(deltaType: "response.reasoning_summary_text.delta", outputIndex: delta.outputIndex, partField: "summary_index", partIndex: delta.partIndex)
        case .reasoningTextDelta(let delta):
            RepeatedTextSource(deltaType: "response.reasoning_text.delta", outputIndex: delta.outputIndex, partField: "content_index", partIndex: delta.partIndex)
        default: nil
        }
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

/// The texts a stream's deltas have brought so far, as their raw JSON bytes' length and fingerprint.
struct DeltaTexts {
    /// A text by its delta kind (`RepeatedTextSource.of`'s order) and indices: cheap to hash per delta.
    private struct Key: Hashable {
        var kind: UInt8
        var output: Int
        var part: Int
    }

    private var texts: [Key: (source: RepeatedTextSource, hasher: FingerprintHasher)] = [:]
    /// Texts with a secret in one of their delta events: the inspector redacts those events, so the text
    /// could not be put back from them.
    private var withSecrets: Set<RepeatedTextSource> = []

    var isEmpty: Bool { texts.isEmpty }

    /// Adds a delta event's raw `delta` bytes to its text's fingerprint.
    mutating func observe(_ kind: ResponseStreamEvent.Kind, data: UnsafeBufferPointer<UInt8>, secrets: ByteSearch.Needles) {
        let tag: UInt8, delta: ResponseStreamEvent.TextDelta
        switch kind {
        case .outputTextDelta(let text): (tag, delta) = (0, text)
        case .refusalDelta(let text): (tag, delta) = (1, text)
        case .reasoningSummaryTextDelta(let text): (tag, delta) = (2, text)
        case .reasoningTextDelta(let text): (tag, delta) = (3, text)
        default: return
        }
        guard let range = JSONParser.topLevelFields(data)?.delta else { return }
        let key = Key(kind: tag, output: delta.outputIndex, part: delta.partIndex)
        if texts[key] == nil, let source = RepeatedTextSource.of(kind) { texts[key] = (source, FingerprintHasher()) }
        texts[key]?.hasher.update(UnsafeBufferPointer(rebasing: data[range]))
        if !secrets.isEmpty, secrets.occur(in: UnsafeRawBufferPointer(data)), let source = texts[key]?.source {
            withSecrets.insert(source)
        }
    }

    /// True when a final event may be recorded without the texts it repeats: the API key occurs neither in
    /// it (a key cut in two by the deltas shows there whole) nor in one of the texts' deltas (which the
    /// inspector redacts, so the text could not be put back from them).
    func mayCut(_ spans: [RepeatedSpan], from data: [UInt8], secrets: ByteSearch.Needles) -> Bool {
        spans.allSatisfy { !withSecrets.contains($0.source) } && !data.withUnsafeBytes { secrets.occur(in: $0) }
    }

    /// A final event's bytes without the texts it repeats (each string left empty, so still JSON), and
    /// where each text goes back (`RepeatedSpan.start` in the cut bytes).
    static func cut(_ spans: [RepeatedSpan], from data: [UInt8]) -> (bytes: [UInt8], repeats: [RepeatedSpan])? {
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

    /// The texts as a final event's long strings are matched against.
    var candidates: [(source: RepeatedTextSource, fingerprint: LongStrings.Fingerprint)] {
        texts.values.map { ($0.source, $0.hasher.finalize()) }
    }
}
