import GRDB
import GRDBSQLite
import ResponsesAPI

/// Writes a batch of events as one `event_batch` row: their data one after another in a blob, and a JSON
/// array with each event's index, sequence number, arrival offset, type, and where its bytes are (and
/// whether they are UTF-8 text). The `event` view unpacks it, one row per event, exact bytes.
enum EventInserter {
    static let sql = "INSERT INTO event_batch (exchange_id, first_idx, count, meta, data) VALUES (?, ?, ?, ?, ?)"

    /// SQLite copies what it is given (the buffers live only for the call).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// `rows`: each event with its data already redacted.
    static func insert(_ rows: [(RecordedEvent, [UInt8])], exchange id: Int64, db: Database) throws {
        guard let first = rows.first else { return }
        var data: [UInt8] = []
        data.reserveCapacity(rows.reduce(0) { $0 + $1.1.count })
        var meta: [UInt8] = [UInt8(ascii: "[")]
        meta.reserveCapacity(rows.count * 64)
        for (index, (event, bytes)) in rows.enumerated() {
            if index > 0 { meta.append(UInt8(ascii: ",")) }
            meta.append(UInt8(ascii: "["))
            append(event.index, to: &meta)
            meta.append(UInt8(ascii: ","))
            if let sequence = event.sequenceNumber { append(sequence, to: &meta) } else { meta += Array("null".utf8) }
            meta.append(UInt8(ascii: ","))
            // Milliseconds with three decimals (microseconds), written as integer parts.
            let micros = Int((event.offset.milliseconds * 1000).rounded())
            append(micros / 1000, to: &meta)
            meta.append(UInt8(ascii: "."))
            let fraction = micros % 1000
            if fraction < 100 { meta.append(UInt8(ascii: "0")) }
            if fraction < 10 { meta.append(UInt8(ascii: "0")) }
            append(fraction, to: &meta)
            meta.append(UInt8(ascii: ","))
            if event.type.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
                meta.append(UInt8(ascii: "\""))
                meta += event.type.utf8
                meta.append(UInt8(ascii: "\""))
            } else {
                meta += JSONValue.string(event.type).serialized()
            }
            meta.append(UInt8(ascii: ","))
            append(data.count, to: &meta)
            meta.append(UInt8(ascii: ","))
            append(bytes.count, to: &meta)
            meta += bytes.withUnsafeBytes(isUTF8) ? Array(",1]".utf8) : Array(",0]".utf8)
            data.append(contentsOf: bytes)
        }
        meta.append(UInt8(ascii: "]"))
        let statement = try db.cachedStatement(sql: sql)
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, id)
        sqlite3_bind_int64(raw, 2, Int64(first.0.index))
        sqlite3_bind_int64(raw, 3, Int64(rows.count))
        meta.withUnsafeBytes { bytes in
            _ = sqlite3_bind_text(raw, 4, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
        }
        data.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(raw, 5, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
        }
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
        }
    }

    /// Appends the decimal digits of a non-negative `value` (negative ones with a sign).
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(-value, to: &bytes)
            return
        }
        if value >= 10 { append(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// ASCII is checked byte by byte at full speed; only data with other bytes pays for a full validation.
    static func isUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        return ascii || String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self) != nil
    }
}
