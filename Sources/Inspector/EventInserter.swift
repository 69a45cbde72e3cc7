import GRDB
import GRDBSQLite
import ResponsesAPI

/// Writes a batch of events with one prepared statement, binding each event's bytes straight to SQLite:
/// no String, no `StatementArguments` per row (they were most of the writer's time).
enum EventInserter {
    static let sql = "INSERT INTO event (exchange_id, idx, sequence_number, offset_ms, type, data) VALUES (?, ?, ?, ?, ?, ?)"

    /// SQLite copies what it is given (the buffers live only for the call).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// `rows`: each event with its data already redacted. Data that is UTF-8 is stored as text (so SQLite's
    /// JSON functions read it), anything else as a blob: exact either way.
    static func insert(_ rows: [(RecordedEvent, [UInt8])], exchange id: Int64, db: Database) throws {
        let statement = try db.cachedStatement(sql: sql)
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        for (event, data) in rows {
            sqlite3_reset(raw)
            sqlite3_bind_int64(raw, 1, id)
            sqlite3_bind_int64(raw, 2, Int64(event.index))
            if let sequence = event.sequenceNumber { sqlite3_bind_int64(raw, 3, Int64(sequence)) } else { sqlite3_bind_null(raw, 3) }
            sqlite3_bind_double(raw, 4, event.offset.milliseconds)
            _ = event.type.withCString { sqlite3_bind_text(raw, 5, $0, -1, transient) }
            data.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else {
                    _ = sqlite3_bind_text(raw, 6, "", 0, transient)
                    return
                }
                if isUTF8(bytes) {
                    _ = sqlite3_bind_text(raw, 6, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
                } else {
                    _ = sqlite3_bind_blob(raw, 6, base, Int32(bytes.count), transient)
                }
            }
            let code = sqlite3_step(raw)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                    sql: sql)
            }
        }
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
