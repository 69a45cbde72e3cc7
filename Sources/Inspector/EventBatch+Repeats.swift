import Foundation
import ResponsesAPI

/// Final events stored once: the API's last four events each repeat the whole answer, which the deltas
/// already brought and the store already holds. The client records such an event without the repeated
/// text (`RecordedEvents.Entry.repeats`), the batch stores it so, and the text is put back from the stored
/// deltas when the event is read, checked against the length and fingerprint the client measured, so what
/// is read is the exact bytes that arrived.
extension EventBatch {
    /// The batch's cuts as the `repeats` column holds them, nil when there are none.
    func repeatsJSON() -> [UInt8]? {
        var rows: [JSONValue] = []
        for (position, entry) in entries.enumerated() {
            for cut in entry.repeats {
                rows.append(
                    .array([
                        .integer(position), .integer(cut.start), .integer(cut.count),
                        .string(Self.hex(cut.fingerprint.first)), .string(Self.hex(cut.fingerprint.second)),
                        .string(cut.source.deltaType), .integer(cut.source.outputIndex), .string(cut.source.partField),
                        .integer(cut.source.partIndex),
                    ]))
            }
        }
        return rows.isEmpty ? nil : JSONValue.array(rows).serialized()
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The cuts of a stored batch (`repeats` column), by the position of their event in the batch.
    static func repeats(fromColumn text: String?, batch firstIndex: Int, exchange id: Int64) throws -> [(
        position: Int, cut: RepeatedSpan
    )] {
        guard let text else { return [] }
        guard case .array(let rows)? = try? JSONValue.parse(Array(text.utf8)) else {
            throw RepeatError(
                exchange: id, event: firstIndex, reason: "the batch's list of repeated texts is not a JSON array")
        }
        return try rows.map { row in
            let fields = row.arrayValue ?? []
            guard fields.count == 9, let position = fields[0].intValue, let at = fields[1].intValue,
                let count = fields[2].intValue,
                let first = fields[3].stringValue.flatMap({ UInt64($0, radix: 16) }),
                let second = fields[4].stringValue.flatMap({ UInt64($0, radix: 16) }), let type = fields[5].stringValue,
                let output = fields[6].intValue, let partField = fields[7].stringValue, let part = fields[8].intValue
            else {
                throw RepeatError(
                    exchange: id, event: firstIndex,
                    reason: "a repeated text's entry is malformed: \(row.compactString)")
            }
            let source = RepeatedTextSource(deltaType: type, outputIndex: output, partField: partField, partIndex: part)
            let fingerprint = LongStrings.Fingerprint(length: count, first: first, second: second)
            return (position, RepeatedSpan(start: at, count: count, source: source, fingerprint: fingerprint))
        }
    }

    /// Puts the cut texts back into the events of one exchange (sorted by index): each from the raw `delta`
    /// strings of its source's delta events before it, checked against the length and fingerprint.
    static func restore(_ cuts: [(event: Int, cut: RepeatedSpan)], in events: inout [StoredEvent], exchange id: Int64)
        throws
    {
        guard !cuts.isEmpty else { return }
        var texts: [RepeatedTextSource: [(index: Int, range: Range<Int>)]] = [:]
        for source in Set(cuts.map(\.cut.source)) {
            texts[source] = events.indices.compactMap { position in
                guard events[position].type == source.deltaType else { return nil }
                return events[position].data.withUnsafeBufferPointer { source.rawDelta(in: $0) }.map { (position, $0) }
            }
        }
        // Later cuts first, so an earlier cut's offset still holds when it is put back.
        for (eventIndex, cut) in cuts.sorted(by: { ($0.event, $0.cut.start) > ($1.event, $1.cut.start) }) {
            guard let position = events.firstIndex(where: { $0.index == eventIndex }) else {
                throw RepeatError(exchange: id, event: eventIndex, reason: "the event is missing")
            }
            // The first `cut.count` bytes of the deltas' text: all of it, or a prefix when the final text went
            // on past its deltas or departed from them (`RepeatSkimmer`).
            var text: [UInt8] = []
            text.reserveCapacity(cut.count)
            for delta in texts[cut.source] ?? [] where events[delta.index].index < eventIndex && text.count < cut.count
            {
                let range = events[delta.index].data[delta.range]
                text.append(contentsOf: range.prefix(cut.count - text.count))
            }
            var hasher = FingerprintHasher()
            hasher.update(text)
            guard text.count == cut.count, hasher.finalize() == cut.fingerprint,
                cut.start <= events[position].data.count
            else {
                throw RepeatError(
                    exchange: id, event: eventIndex,
                    reason:
                        "its repeated text (\(cut.count) bytes of \(cut.source.deltaType), output \(cut.source.outputIndex)) does not match the \(text.count) bytes its stored deltas hold"
                )
            }
            events[position].data.insert(contentsOf: text, at: cut.start)
        }
    }

    /// An event whose repeated text cannot be put back: the store was changed or damaged.
    struct RepeatError: Error, CustomStringConvertible {
        var exchange: Int64
        var event: Int
        var reason: String
        var description: String { "exchange \(exchange), event \(event): \(reason)" }
    }
}
