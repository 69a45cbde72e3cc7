/// The server-sent events of one network read, as the client hands them to an observer: their data one
/// after another in one buffer, and a small entry per event. One allocation per read instead of one per
/// event, and nothing the observer keeps holds on to the events the consumer has already dropped.
/// Reading an element gives a `RecordedEvent` (with its own copy of the data).
///
/// An event of `separateBytes` or more (the API's final events each repeat a whole answer) is not copied
/// into the shared buffer: its entry keeps the event's own bytes (`Entry.separate`), shared with the
/// event, so a 50 MB event is held once however many hands it passes through.
public struct RecordedEvents: Sendable, RandomAccessCollection {
    public struct Entry: Sendable {
        /// Position in the stream as received, from 0.
        public var index: Int
        /// Arrival time since the request was sent.
        public var offset: Duration
        /// The JSON `type` (or the SSE event name when the data is not JSON).
        public var type: String
        public var sequenceNumber: Int?
        /// Where the event's data is in `bytes`.
        public var start: Int
        public var count: Int
        /// See `RecordedEvent.text`.
        public var text: String?
        /// The bytes of an event of `separateBytes` or more, kept apart from `bytes` (then `start` is 0).
        public var separate: [UInt8]?
        /// The long strings of a final event that repeat a text its deltas brought (see `RepeatedText`),
        /// cut out of the recorded bytes: each `start` is where one goes back. The event's exact bytes are
        /// its recorded bytes with each text put back, from the raw `delta` strings of its source's events.
        public var repeats: [RepeatedSpan] = []
    }

    /// Events this large keep their own bytes rather than a copy in `bytes`.
    public static let separateBytes = 256 * 1024

    /// Every event's exact data, one after another.
    public private(set) var bytes: [UInt8] = []
    public private(set) var entries: [Entry] = []

    public init() {}

    public init(_ events: [RecordedEvent]) {
        for event in events {
            append(
                index: event.index, offset: event.offset, type: event.type, sequenceNumber: event.sequenceNumber,
                data: event.data, text: event.text)
        }
    }

    public mutating func append(
        index: Int, offset: Duration, type: String, sequenceNumber: Int?, data: [UInt8], text: String? = nil,
        repeats: [RepeatedSpan] = []
    ) {
        if data.count >= Self.separateBytes {
            entries.append(
                Entry(
                    index: index, offset: offset, type: type, sequenceNumber: sequenceNumber, start: 0,
                    count: data.count,
                    text: text, separate: data, repeats: repeats))
            separateByteCount += data.count
            return
        }
        entries.append(
            Entry(
                index: index, offset: offset, type: type, sequenceNumber: sequenceNumber, start: bytes.count,
                count: data.count, text: text, repeats: repeats))
        bytes.append(contentsOf: data)
    }

    /// Appends an event, without the texts it repeats when `cut` gives its bytes without them (and where
    /// each goes back), whole otherwise.
    public mutating func append(
        index: Int, offset: Duration, type: String, sequenceNumber: Int?, data: [UInt8], text: String?,
        cut: (bytes: [UInt8], repeats: [RepeatedSpan])?
    ) {
        append(
            index: index, offset: offset, type: type, sequenceNumber: sequenceNumber, data: cut?.bytes ?? data,
            text: text,
            repeats: cut?.repeats ?? [])
    }

    /// The bytes of every event, in `bytes` and apart.
    public var byteCount: Int { bytes.count + separateByteCount }
    private var separateByteCount = 0

    /// Empties the list and makes room for about `byteCapacity` bytes of data (the next read's size), so
    /// a list handed to an observer holds no more memory than its events need.
    public mutating func removeAll(reservingBytes byteCapacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(byteCapacity)
        entries.removeAll(keepingCapacity: true)
        separateByteCount = 0
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> RecordedEvent {
        let entry = entries[position]
        return RecordedEvent(
            index: entry.index, offset: entry.offset, type: entry.type, sequenceNumber: entry.sequenceNumber,
            data: entry.separate ?? Array(bytes[entry.start..<(entry.start + entry.count)]), text: entry.text)
    }
}
