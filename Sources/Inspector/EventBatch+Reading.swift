import GRDB
import ResponsesAPI

extension EventBatch {
    /// The events of one exchange, read from its batches. The `event` view gives the same rows, but SQLite
    /// loads a row's whole blob again for every `substr` of it, which makes the view quadratic in the batch
    /// size; here each blob is read once and sliced.
    static func storedEvents(exchange id: Int64, db: Database) throws -> [StoredEvent] {
        var events: [StoredEvent] = []
        var cuts: [(event: Int, cut: RepeatedSpan)] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql:
                    "SELECT first_idx, meta, types, repeats, data FROM event_batch WHERE exchange_id = ? ORDER BY first_idx"
            ),
            arguments: [id])
        while let row = try rows.next() {
            let firstIndex: Int = row["first_idx"]
            let meta: String = row["meta"]
            let types: String? = row["types"]
            for (position, cut) in try repeats(fromColumn: row["repeats"], batch: firstIndex, exchange: id) {
                cuts.append((firstIndex + position, cut))
            }
            let data: [UInt8] = InspectorStore.bytes(row["data"]) ?? []
            guard case .array(let entries)? = try? JSONValue.parse(Array(meta.utf8)) else {
                throw DatabaseError(
                    message: "exchange \(id): the event index of batch \(firstIndex) is not a JSON array")
            }
            let names = types.map { types in
                (try? JSONValue.parse(Array(types.utf8)))?.arrayValue?.map { $0.stringValue ?? "" } ?? []
            }
            for (position, entry) in entries.enumerated() {
                let fields = entry.arrayValue ?? []
                func field(_ index: Int) -> JSONValue? { fields.count > index ? fields[index] : nil }
                if let names {
                    // Since v7: [sequence_number, offset_us, type, start, length]; the type a position in `types`.
                    let type = field(2)?.intValue.flatMap { names.indices.contains($0) ? names[$0] : nil }
                    events.append(
                        StoredEvent(
                            index: firstIndex + position, sequenceNumber: field(0)?.intValue,
                            offsetMs: Double(field(1)?.intValue ?? 0) / 1000, type: type ?? "",
                            data: slice(data, start: field(3)?.intValue, length: field(4)?.intValue)))
                } else {
                    // Before v7: [idx, sequence_number, offset_ms, type, start, length, is_text].
                    events.append(
                        StoredEvent(
                            index: field(0)?.intValue ?? 0, sequenceNumber: field(1)?.intValue,
                            offsetMs: field(2)?.doubleValue ?? 0, type: field(3)?.stringValue ?? "",
                            data: slice(data, start: field(4)?.intValue, length: field(5)?.intValue)))
                }
            }
        }
        events.sort { $0.index < $1.index }
        try restore(cuts, in: &events, exchange: id)
        return events
    }

    private static func slice(_ data: [UInt8], start: Int?, length: Int?) -> [UInt8] {
        guard let start, let length, start >= 0, length >= 0, start + length <= data.count else { return [] }
        return Array(data[start..<(start + length)])
    }
}
