import GRDB
import GRDBSQLite
import ResponsesAPI

/// The events a recording's writer has not stored yet, kept as one `event_batch` row will hold them: their
/// data one after another in a blob, and for each event a few integers (index, sequence number, arrival
/// offset, where its bytes are) and its type. Appending an event costs a copy of its bytes; secrets are
/// looked for once over the whole blob when the batch is packed, and the JSON index (`meta`) is written
/// then. Buffers are reused from one batch to the next.
struct EventBatch {
    private struct Entry {
        var index: Int
        var sequenceNumber: Int?
        /// Arrival offset in microseconds.
        var micros: Int
        var type: String
        var start: Int
        var length: Int
    }

    /// A batch ready for its row: exact (redacted) bytes and the JSON index the `event` view reads.
    struct Packed: Sendable {
        var firstIndex: Int
        var count: Int
        var meta: [UInt8]
        var data: [UInt8]
    }

    private var entries: [Entry] = []
    private var data: [UInt8] = []
    private var spareMeta: [UInt8] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var byteCount: Int { data.count }

    /// Appends the events of one network read: one copy of their bytes.
    mutating func append(_ events: RecordedEvents) {
        let base = data.count
        for event in events.entries {
            entries.append(Entry(
                index: event.index, sequenceNumber: event.sequenceNumber,
                micros: Int((event.offset.milliseconds * 1000).rounded()), type: event.type, start: base + event.start,
                length: event.count))
        }
        data.append(contentsOf: events.bytes)
    }

    /// Takes the batch's contents, redacted and with their index written, and leaves the batch empty.
    mutating func pack(redactor: Redactor) -> Packed? {
        guard let first = entries.first else { return nil }
        if data.withUnsafeBytes(redactor.occurs(in:)) { redactEachEvent(redactor) }
        var meta: [UInt8] = []
        swap(&meta, &spareMeta)
        meta.removeAll(keepingCapacity: true)
        meta.reserveCapacity(entries.count * 72)
        var lastType = ""
        var lastQuotedType: [UInt8] = Array("\"\"".utf8)
        meta.append(UInt8(ascii: "["))
        data.withUnsafeBufferPointer { bytes in
            for (position, entry) in entries.enumerated() {
                if position > 0 { meta.append(UInt8(ascii: ",")) }
                meta.append(UInt8(ascii: "["))
                Self.appendDecimal(entry.index, to: &meta)
                meta.append(UInt8(ascii: ","))
                if let sequence = entry.sequenceNumber {
                    Self.appendDecimal(sequence, to: &meta)
                } else {
                    meta.append(contentsOf: Self.null)
                }
                meta.append(UInt8(ascii: ","))
                // Milliseconds with three decimals (microseconds), written as integer parts.
                Self.appendDecimal(entry.micros / 1000, to: &meta)
                meta.append(UInt8(ascii: "."))
                let fraction = abs(entry.micros % 1000)
                if fraction < 100 { meta.append(UInt8(ascii: "0")) }
                if fraction < 10 { meta.append(UInt8(ascii: "0")) }
                Self.appendDecimal(fraction, to: &meta)
                meta.append(UInt8(ascii: ","))
                if entry.type != lastType {
                    lastType = entry.type
                    lastQuotedType = JSONValue.string(entry.type).serialized()
                }
                meta.append(contentsOf: lastQuotedType)
                meta.append(UInt8(ascii: ","))
                Self.appendDecimal(entry.start, to: &meta)
                meta.append(UInt8(ascii: ","))
                Self.appendDecimal(entry.length, to: &meta)
                let slice = UnsafeBufferPointer(rebasing: bytes[entry.start..<(entry.start + entry.length)])
                meta.append(contentsOf: UTF8Check.isValid(slice) ? Self.textFlag : Self.blobFlag)
            }
        }
        meta.append(UInt8(ascii: "]"))
        var blob: [UInt8] = []
        swap(&blob, &data)
        let packed = Packed(firstIndex: first.index, count: entries.count, meta: meta, data: blob)
        entries.removeAll(keepingCapacity: true)
        return packed
    }

    /// Gives a stored batch's buffers back, so the next batch does not allocate (and fault in) new ones.
    mutating func recycle(_ packed: consuming Packed) {
        var data = packed.data
        var meta = packed.meta
        if data.capacity > self.data.capacity, self.data.isEmpty {
            data.removeAll(keepingCapacity: true)
            swap(&data, &self.data)
        }
        if meta.capacity > spareMeta.capacity {
            meta.removeAll(keepingCapacity: true)
            swap(&meta, &spareMeta)
        }
    }

    /// The slow path, for a batch in which a secret occurs: each event redacted on its own.
    private mutating func redactEachEvent(_ redactor: Redactor) {
        var redacted: [UInt8] = []
        redacted.reserveCapacity(data.count)
        for position in entries.indices {
            let entry = entries[position]
            let bytes = redactor.redact(Array(data[entry.start..<(entry.start + entry.length)]))
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
        let code = packed.meta.withUnsafeBytes { meta in
            packed.data.withUnsafeBytes { data in
                _ = sqlite3_bind_text(raw, 4, meta.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(meta.count), nil)
                _ = sqlite3_bind_blob(raw, 5, data.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(data.count), nil)
                return sqlite3_step(raw)
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    private static let sql = "INSERT INTO event_batch (exchange_id, first_idx, count, meta, data) VALUES (?, ?, ?, ?, ?)"
    private static let null = Array("null".utf8)
    private static let textFlag = Array(",1]".utf8)
    private static let blobFlag = Array(",0]".utf8)

    /// Appends the decimal digits of `value` (with a sign when negative).
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
