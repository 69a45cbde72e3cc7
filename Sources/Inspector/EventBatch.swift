import GRDB
import GRDBSQLite
import ResponsesAPI

/// The events a recording's writer has not stored yet, kept as one `event_batch` row will hold them: their
/// data one after another in a blob, and for each event a few integers (index, sequence number, arrival
/// offset, where its bytes are) and its type. Appending an event costs a copy of its bytes; secrets are
/// looked for once over the whole blob when the batch is packed, and the index (`meta`, `types`, `blobs`)
/// is written then. Buffers are reused from one batch to the next.
struct EventBatch {
    struct Entry {
        var index: Int
        var sequenceNumber: Int?
        /// Arrival offset in microseconds.
        var micros: Int
        var type: String
        var start: Int
        var length: Int
        /// The texts cut out of a final event's recorded bytes, each `start` where it goes back
        /// (`RecordedEvents.Entry.repeats`).
        var repeats: [RepeatedSpan] = []
    }

    /// A batch ready for its row: exact (redacted) bytes and the index the `event` view reads.
    struct Packed: Sendable {
        var firstIndex: Int
        var count: Int
        /// JSON: `[sequence_number, offset_us, type, start, length]` per event.
        var meta: [UInt8]
        /// JSON: the batch's distinct event types, which `meta` refers to by position.
        var types: [UInt8]
        /// JSON: the positions of the events whose data is not UTF-8 (nil when there are none).
        var blobs: [UInt8]?
        /// JSON: the texts cut out of final events, to put back from their deltas (nil when there are none).
        var repeats: [UInt8]?
        var data: [UInt8]
    }

    var entries: [Entry] = []
    var data: [UInt8] = []
    var spareMeta: [UInt8] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var byteCount: Int { data.count }

    /// Appends the events of one network read (those in `range`, none with bytes of their own): one copy
    /// of their bytes.
    mutating func append(_ events: RecordedEvents, _ range: Range<Int>? = nil) {
        let range = range ?? events.entries.indices
        guard let first = range.first.map({ events.entries[$0] }), let last = range.last.map({ events.entries[$0] })
        else { return }
        let base = data.count - first.start
        // Read in place: an entry copied out retains and releases its four references.
        // The events of a read arrived with it, at one offset: converted once, not per event.
        var offset = first.offset
        var micros = Self.micros(first.offset)
        events.entries.withUnsafeBufferPointer { events in
            for index in range {
                let event = events.baseAddress! + index
                if event.pointee.offset != offset {
                    offset = event.pointee.offset
                    micros = Self.micros(offset)
                }
                entries.append(Self.entry(event, start: base + event.pointee.start, micros: micros))
            }
        }
        data.append(contentsOf: events.bytes[first.start..<(last.start + last.count)])
    }

    /// Makes the (empty) batch of one event that has bytes of its own, those very bytes: not copied.
    mutating func appendAlone(_ event: RecordedEvents.Entry) {
        precondition(entries.isEmpty, "an event with its own bytes is a batch of its own")
        entries.append(withUnsafePointer(to: event) { Self.entry($0, start: 0, micros: Self.micros(event.offset)) })
        data = event.separate ?? []
    }

    /// The batch is one event's own bytes (`appendAlone`): nothing may be appended until it is packed.
    var holdsAlone: Bool { entries.count == 1 && data.count >= RecordedEvents.separateBytes }

    /// The batch's entry for `event` (read field by field where it is), its bytes at `start`, its arrival
    /// offset `micros` (its `offset` in microseconds).
    static func entry(_ event: UnsafePointer<RecordedEvents.Entry>, start: Int, micros: Int) -> Entry {
        Entry(
            index: event.pointee.index, sequenceNumber: event.pointee.sequenceNumber, micros: micros,
            type: event.pointee.type, start: start, length: event.pointee.count, repeats: event.pointee.repeats)
    }

    /// An arrival offset in whole microseconds, rounded (in integers: through a `Double` of milliseconds it
    /// cost some 150 instructions an event).
    static func micros(_ offset: Duration) -> Int {
        let (seconds, attoseconds) = offset.components
        return Int(seconds) * 1_000_000 + Int((attoseconds + 500_000_000_000) / 1_000_000_000_000)
    }

    /// The events of a read in order, as runs that share the read's buffer and events with bytes of their own.
    enum Run {
        case shared(Range<Int>)
        case separate(RecordedEvents.Entry)
    }

    static func runs(of events: RecordedEvents) -> [Run] {
        var runs: [Run] = []
        var start = 0
        for position in events.entries.indices where events.entries[position].separate != nil {
            let entry = events.entries[position]
            if start < position { runs.append(.shared(start..<position)) }
            runs.append(.separate(entry))
            start = position + 1
        }
        if start < events.entries.count { runs.append(.shared(start..<events.entries.count)) }
        return runs
    }

    /// Takes the batch's contents, redacted and with their index written, and leaves the batch empty.
    mutating func pack(redactor: Redactor) -> Packed? {
        guard let first = entries.first else { return nil }
        if data.withUnsafeBytes(redactor.occurs(in:)) { redactEachEvent(redactor) }
        var meta: [UInt8] = []
        swap(&meta, &spareMeta)
        meta.removeAll(keepingCapacity: true)
        meta.reserveCapacity(entries.count * 32)
        var types: [String] = []
        var lastType: String?
        var lastTypeNumber = 0
        let blobs = nonUTF8Positions()
        meta.append(UInt8(ascii: "["))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.metaRowCapacity) { row in
            let end = row.baseAddress! + Self.metaRowCapacity
            for position in entries.indices {
                let type = entries[position].type
                if type != lastType {
                    lastType = type
                    if let known = types.firstIndex(of: type) {
                        lastTypeNumber = known
                    } else {
                        lastTypeNumber = types.count
                        types.append(type)
                    }
                }
                let start = Self.writeMetaRow(
                    sequenceNumber: entries[position].sequenceNumber, micros: entries[position].micros,
                    type: lastTypeNumber,
                    start: entries[position].start, length: entries[position].length, first: position == 0,
                    endingAt: end)
                meta.append(contentsOf: UnsafeBufferPointer(start: start, count: start.distance(to: end)))
            }
        }
        meta.append(UInt8(ascii: "]"))
        var blob: [UInt8] = []
        swap(&blob, &data)
        let packed = Packed(
            firstIndex: first.index, count: entries.count, meta: meta,
            types: JSONValue.array(types.map(JSONValue.string)).serialized(),
            blobs: blobs.isEmpty ? nil : JSONValue.array(blobs.map(JSONValue.integer)).serialized(),
            repeats: repeatsJSON(), data: blob)
        entries.removeAll(keepingCapacity: true)
        return packed
    }

    /// The positions of the events whose data is not valid UTF-8. One pass over the whole blob: when it is
    /// valid and no event starts inside a character, every event is; otherwise each is checked.
    private func nonUTF8Positions() -> [Int] {
        data.withUnsafeBufferPointer { bytes in
            if UTF8Check.isValid(bytes),
                entries.allSatisfy({ $0.start >= bytes.count || bytes[$0.start] & 0xC0 != 0x80 })
            {
                return []
            }
            return entries.indices.filter { position in
                let entry = entries[position]
                return !UTF8Check.isValid(
                    UnsafeBufferPointer(rebasing: bytes[entry.start..<(entry.start + entry.length)]))
            }
        }
    }

    /// The slow path, for a batch in which a secret occurs: each event redacted on its own.
    private mutating func redactEachEvent(_ redactor: Redactor) {
        var redacted: [UInt8] = []
        redacted.reserveCapacity(data.count)
        for position in entries.indices {
            let entry = entries[position]
            // A final event recorded without its repeated text was looked through whole by the client for
            // the API key; a secret it did not know (a header's, the URL's) is overwritten in place, so the
            // offsets where the texts go back still hold.
            let original = Array(data[entry.start..<(entry.start + entry.length)])
            let bytes = entry.repeats.isEmpty ? redactor.redact(original) : redactor.mask(original)
            entries[position].start = redacted.count
            entries[position].length = bytes.count
            redacted.append(contentsOf: bytes)
        }
        data = redacted
    }

    /// Inserts a packed batch as one row. SQLite reads the buffers in place (they outlive the call).
    static func insert(_ packed: Packed, exchange id: Int64, db: Database) throws {
        let statement = try db.cachedStatement(sql: sql)
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, id)
        sqlite3_bind_int64(raw, 2, Int64(packed.firstIndex))
        sqlite3_bind_int64(raw, 3, Int64(packed.count))
        func bindText(_ index: Int32, _ text: [UInt8]?) {
            guard let text else {
                sqlite3_bind_null(raw, index)
                return
            }
            text.withUnsafeBytes { bytes in
                _ = sqlite3_bind_text(
                    raw, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                    Self.transient)
            }
        }
        // meta, types and blobs are small next to the data: SQLite copies them; the data it reads in place.
        bindText(4, packed.meta)
        bindText(5, packed.types)
        bindText(6, packed.blobs)
        bindText(7, packed.repeats)
        let code = packed.data.withUnsafeBytes { data in
            _ = sqlite3_bind_blob(raw, 8, data.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(data.count), nil)
            return sqlite3_step(raw)
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: sql)
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    private static let sql =
        "INSERT INTO event_batch (exchange_id, first_idx, count, meta, types, blobs, repeats, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
}
