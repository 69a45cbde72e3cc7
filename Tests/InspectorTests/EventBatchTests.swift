import Foundation
import GRDB
import ResponsesAPI
import TestSupport
import Testing

@testable import Inspector

/// How the recorder packs events: the UTF-8 flag of each event, secrets looked for over a whole batch,
/// and events stored while the stream is still running.
@Suite("Event batches in the recorder")
struct EventBatchTests {
    @Test func utf8CheckAgreesWithTheStandardLibrary() {
        // Seeded, so a failure repeats.
        var generator = SplitMix(seed: 0x5EED_0019)
        // Pieces that exercise every rule: ASCII runs, valid 2-, 3- and 4-byte sequences, overlong forms,
        // surrogates, code points above U+10FFFF, stray continuation bytes and truncated sequences.
        let pieces: [[UInt8]] = [
            Array("plain ascii text ".utf8), Array("é".utf8), Array("✓".utf8), Array("𝄞".utf8),
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xBF],
            [0xE2, 0x9C], [0xF0, 0x9D, 0x84], [0xFF], [0xC2], Array("0123456789abcdef".utf8),
            [0xF5, 0x80, 0x80, 0x80], [0xC1, 0xBF], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            Array("中文字".utf8), Array("a".utf8),
        ]
        // Short inputs (checked through the padded block) and long ones (sixteen bytes at a time, every
        // sequence at every offset from the blocks' edges, and mostly valid text with one fault in it).
        for maximum in [6, 60] {
            for _ in 0..<5000 {
                var bytes: [UInt8] = []
                for _ in 0..<Int.random(in: 0...maximum, using: &generator) {
                    bytes += pieces.randomElement(using: &generator)!
                }
                let expected = String(validating: bytes, as: UTF8.self) != nil
                #expect(bytes.withUnsafeBufferPointer(UTF8Check.isValid) == expected, "\(bytes)")
            }
        }
        let valid = pieces.filter { String(validating: $0, as: UTF8.self) != nil }
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...40, using: &generator) { bytes += valid.randomElement(using: &generator)! }
            #expect(bytes.withUnsafeBufferPointer(UTF8Check.isValid), "\(bytes)")
            let fault = pieces.filter { String(validating: $0, as: UTF8.self) == nil }.randomElement(using: &generator)!
            bytes.insert(contentsOf: fault, at: Int.random(in: 0...bytes.count, using: &generator))
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(bytes.withUnsafeBufferPointer(UTF8Check.isValid) == expected, "\(bytes)")
        }
    }

    /// A lead whose sequence is cut by the end of a checked block, the next block being ASCII: the ASCII
    /// block is passed only when nothing is owed to it, so the cut is found at every block edge.
    @Test func aSequenceCutAtABlockEdgeBeforeASCIIIsInvalid() {
        let ascii = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for edge in [16, 32, 48] {
            let leads: [(lead: [UInt8], whole: [UInt8])] = [
                ([0xC3], Array("é".utf8)), ([0xE2], Array("✓".utf8)), ([0xE2, 0x9C], Array("✓".utf8)),
                ([0xF0], Array("𝄞".utf8)), ([0xF0, 0x9D, 0x84], Array("𝄞".utf8)),
            ]
            for (lead, whole) in leads {
                // Non-ASCII before the edge, so the block ending there is checked and the next one is not after ASCII.
                let head = Array("é".utf8) + Array(ascii.prefix(edge - 2 - lead.count))
                let cut = head + lead + ascii + ascii
                #expect(!cut.withUnsafeBufferPointer(UTF8Check.isValid), "\(lead) cut at \(edge)")
                let kept = head + whole + ascii + ascii
                #expect(kept.withUnsafeBufferPointer(UTF8Check.isValid), "\(whole) across \(edge)")
            }
        }
    }

    @Test func aSecretIsFoundWhereverItIsInABatch() {
        let key = "sk-proj-AbCdEf0123456789"
        let redactor = Redactor(secrets: [key])
        for prefix in ["", "x", String(repeating: "data ", count: 300)] {
            for suffix in ["", "\"}", String(repeating: " tail", count: 50)] {
                let bytes = Array((prefix + key + suffix).utf8)
                #expect(bytes.withUnsafeBytes(redactor.occurs(in:)), "\(prefix.count) + key + \(suffix.count)")
            }
        }
        let near = Array("sk-proj-AbCdEf012345678 sk-proj-AbCdEf0123456780 AbCdEf0123456789".utf8)
        #expect(!near.withUnsafeBytes(redactor.occurs(in:)))
        #expect(!Array("".utf8).withUnsafeBytes(redactor.occurs(in:)))
        #expect(!Array("sk-proj".utf8).withUnsafeBytes(redactor.occurs(in:)))
    }

    @Test func aSecretInOneEventIsRedactedAndTheOtherEventsStayExact() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let datas = [
            #"{"type":"response.output_text.delta","delta":"héllo"}"#,
            #"{"type":"response.output_text.delta","delta":"the key is \#(testKey)!"}"#,
            #"{"type":"response.output_text.delta","delta":"bye"}"#,
        ]
        let recording = await store.recorder.exchangeWillStart(request(secrets: [testKey]))
        recording.didReceiveEvents(
            RecordedEvents(
                datas.enumerated().map { index, data in
                    RecordedEvent(
                        index: index, offset: .milliseconds(index), type: "response.output_text.delta",
                        sequenceNumber: index,
                        data: Array(data.utf8))
                }))
        await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        let detail = try #require(try await store.store.exchange(id: 1))
        #expect(
            detail.events.map { String(decoding: $0.data, as: UTF8.self) } == [
                datas[0], #"{"type":"response.output_text.delta","delta":"the key is \#(Redactor.placeholder)!"}"#,
                datas[2],
            ])
        #expect(detail.events.map(\.sequenceNumber) == [0, 1, 2])
        #expect(detail.events.map(\.offsetMs) == [0, 1, 2])
        #expect(try store.allBytes().range(of: Data(testKey.utf8)) == nil)
    }

    @Test func eventsAreStoredWhileTheStreamIsStillRunning() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let recording = await store.recorder.exchangeWillStart(request(secrets: []))
        recording.didReceiveEvents(
            RecordedEvents(
                (0..<3).map { index in
                    RecordedEvent(
                        index: index, offset: .milliseconds(index), type: "response.output_text.delta",
                        sequenceNumber: index,
                        data: Array(#"{"type":"response.output_text.delta","delta":"x"}"#.utf8))
                }))
        // No finish: a process killed now must still have these events on disk (the writer stores a batch
        // 200 ms after its first event).
        let inspector = store.store
        try await Deadline.poll("the three events stored before the stream ends") {
            try await inspector.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM event") } == 3
        }
        await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        #expect(try await store.store.exchange(id: 1)?.summary.eventCount == 3)
    }

    @Test func eventsThatAreNotUTF8ReadAsBlobsAndTheOthersAsText() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let datas: [[UInt8]] = [
            Array(#"{"type":"a"}"#.utf8), [0x7B, 0xFF, 0xFE, 0x7D], Array(#"{"type":"é ✓"}"#.utf8), [0x80, 0x41],
        ]
        let recording = await store.recorder.exchangeWillStart(request(secrets: []))
        var events = RecordedEvents()
        for (index, data) in datas.enumerated() {
            events.append(
                index: index, offset: .microseconds(1500 * index), type: index == 1 ? "odd" : "response.x",
                sequenceNumber: index == 3 ? nil : index * 10, data: data)
        }
        recording.didReceiveEvents(events)
        await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
        let rows = try store.store.writer.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT idx, sequence_number, offset_ms, type, typeof(data) AS kind, CAST(data AS BLOB) AS bytes FROM event ORDER BY idx"
            )
        }
        #expect(rows.map { $0["idx"] as Int } == [0, 1, 2, 3])
        #expect(rows.map { $0["sequence_number"] as Int? } == [0, 10, 20, nil])
        #expect(rows.map { $0["offset_ms"] as Double } == [0, 1.5, 3, 4.5])
        #expect(rows.map { $0["type"] as String } == ["response.x", "odd", "response.x", "response.x"])
        #expect(rows.map { $0["kind"] as String } == ["text", "blob", "text", "blob"])
        #expect(rows.map { [UInt8]($0["bytes"] as Data) } == datas)
    }

    @Test func batchesWrittenBeforeV7AndAfterReadAlike() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("or-v7-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let pool = try DatabasePool(path: path)
        try InspectorStore.migrator.migrate(pool, upTo: "v6-in-progress-index")
        try await pool.write { db in
            try db.execute(
                sql:
                    "INSERT INTO exchange (id, started_at, method, url, request_headers) VALUES (1, '2026-11-22', 'POST', 'u', '[]')"
            )
            try db.execute(
                sql: "INSERT INTO event_batch (exchange_id, first_idx, count, meta, data) VALUES (1, 0, 2, ?, ?)",
                arguments: [
                    #"[[0,0,1.5,"response.created",0,4,1],[1,null,2.25,"odd",4,2,0]]"#,
                    Data("{}é".utf8 + [0xFF, 0x00]),
                ])
        }
        try InspectorStore.migrator.migrate(pool)
        var batch = EventBatch()
        var events = RecordedEvents()
        events.append(
            index: 2, offset: .microseconds(3000), type: "response.completed", sequenceNumber: 2, data: Array("{}".utf8)
        )
        batch.append(events)
        let packedBatch = batch.pack(redactor: Redactor(secrets: []))
        let packed = try #require(packedBatch)
        try await pool.write { db in try EventBatch.insert(packed, exchange: 1, db: db) }
        let rows = try pool.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT idx, sequence_number, offset_ms, type, typeof(data) AS kind, CAST(data AS BLOB) AS bytes FROM event WHERE exchange_id = 1 ORDER BY idx"
            )
        }
        #expect(rows.map { $0["idx"] as Int } == [0, 1, 2])
        #expect(rows.map { $0["sequence_number"] as Int? } == [0, nil, 2])
        #expect(rows.map { $0["offset_ms"] as Double } == [1.5, 2.25, 3])
        #expect(rows.map { $0["type"] as String } == ["response.created", "odd", "response.completed"])
        #expect(rows.map { $0["kind"] as String } == ["text", "blob", "text"])
        #expect(rows.map { [UInt8]($0["bytes"] as Data) } == [Array("{}é".utf8), [0xFF, 0x00], Array("{}".utf8)])

        // The store reads the batches itself (the view is quadratic in a batch's size): the same events.
        try pool.close()
        let store = try InspectorStore.open(at: path)
        let detail = try #require(try await store.exchange(id: 1))
        #expect(detail.events.map(\.index) == [0, 1, 2])
        #expect(detail.events.map(\.sequenceNumber) == [0, nil, 2])
        #expect(detail.events.map(\.offsetMs) == [1.5, 2.25, 3])
        #expect(detail.events.map(\.type) == ["response.created", "odd", "response.completed"])
        #expect(detail.events.map(\.data) == [Array("{}é".utf8), [0xFF, 0x00], Array("{}".utf8)])
    }

    private func request(secrets: [String]) -> ExchangeRequest {
        ExchangeRequest(
            startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses", headers: [],
            body: Array(#"{"model":"m","input":"hi"}"#.utf8), secrets: secrets, context: ExchangeContext())
    }
}

@Suite("Stored dates")
struct StorageDateTests {
    @Test func datesAreWrittenExactlyAsGRDBWritesThem() {
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_270_000.123_456),
            Date(timeIntervalSince1970: 951_782_400.999_9),  // 2000-02-29, the last millisecond of a second
            Date(timeIntervalSince1970: -1.5), Date(timeIntervalSince1970: -86_400 * 365.25 * 30 + 0.25),
            Date(timeIntervalSince1970: 4_102_444_799.5),  // 2099-12-31 23:59:59.5
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            dates.append(Date(timeIntervalSince1970: Double.random(in: -2e9...4e9, using: &generator)))
        }
        for date in dates {
            #expect(StorageDate.string(date).databaseValue == date.databaseValue, "\(date.timeIntervalSince1970)")
        }
    }

    @Test func metaRowsSpellEachIntegerAsJSONDoes() throws {
        var generator = SystemRandomNumberGenerator()
        let edges = [0, 1, 9, 10, 99, 100, 999_999, 1_000_000, -1, -9, -10, Int.max, Int.min, Int.max - 1, Int.min + 1]
        let powers = (0..<19).flatMap { exponent -> [Int] in
            let power = (0..<exponent).reduce(1) { value, _ in value * 10 }
            return [power - 1, power, -power]
        }
        let random = (0..<2000).map { _ in
            Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0...62, using: &generator)
        }
        for value in edges + powers + random {
            let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { out in
                let end = out.baseAddress! + 22
                let start = EventBatch.writeDecimal(value, endingAt: end)
                #expect(out.baseAddress!.distance(to: start) >= 2, "more than 20 bytes for \(value)")
                return String(
                    decoding: UnsafeBufferPointer(start: start, count: start.distance(to: end)), as: UTF8.self)
            }
            #expect(text == String(value))
        }

        var events = RecordedEvents()
        events.append(index: 0, offset: .microseconds(1500), type: "a", sequenceNumber: nil, data: Array("{}".utf8))
        events.append(
            index: 1, offset: .microseconds(2000), type: "b", sequenceNumber: Int.max, data: Array("[1]".utf8))
        events.append(index: 2, offset: .seconds(3), type: "a", sequenceNumber: 0, data: Array("7".utf8))
        var batch = EventBatch()
        batch.append(events)
        let packedBatch = batch.pack(redactor: Redactor(secrets: []))
        let packed = try #require(packedBatch)
        #expect(
            String(decoding: packed.meta, as: UTF8.self)
                == "[[null,1500,0,0,2],[9223372036854775807,2000,1,2,3],[0,3000000,0,5,1]]")
        #expect(String(decoding: packed.types, as: UTF8.self) == #"["a","b"]"#)
        // The longest row there can be fits the room each row is given.
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: EventBatch.metaRowCapacity) { out in
            let end = out.baseAddress! + EventBatch.metaRowCapacity
            let start = EventBatch.writeMetaRow(
                sequenceNumber: Int.min, micros: Int.min, type: Int.min, start: Int.min, length: Int.min, first: false,
                endingAt: end)
            return String(decoding: UnsafeBufferPointer(start: start, count: start.distance(to: end)), as: UTF8.self)
        }
        #expect(written == ",[" + Array(repeating: String(Int.min), count: 5).joined(separator: ",") + "]")
        #expect(written.utf8.count == EventBatch.metaRowCapacity)
    }
}
