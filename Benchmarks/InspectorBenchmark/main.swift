// The inspector's cost, measured (Benchmarks/inspector.sh runs it):
//
//   openresponses-inspector-bench stream [MB] [RUNS]   consume a MB-megabyte streamed answer from a loopback
//                                                      server through the real client, alternately with the
//                                                      inspector recording and without; median wall times
//   openresponses-inspector-bench fill PATH [N]        create an inspector store at PATH holding N generated
//                                                      exchanges (for timing `inspect list --search`)
//   openresponses-inspector-bench search PATH WORDS    time the search query in-process (median of 20)
import Foundation
import Inspector
import ResponsesAPI
import TestSupport

let arguments = Array(CommandLine.arguments.dropFirst())

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func streamBenchmark(megabytes: Double, runs: Int) async throws {
    let body = Fixtures.largeTextStream(megabytes: megabytes)
    let bytes = body.reduce(0) { $0 + $1.utf8.count }
    let parts = Fixtures.chunked(body)
    let server = try await LoopbackServer.start { _ in
        Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: parts)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-inspector-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try InspectorStore.open(at: directory.appendingPathComponent("inspector.sqlite").path)
    let recorder = ExchangeRecorder(store: store)
    let configuration = Configuration(baseURL: server.baseURL, apiKey: "sk-bench-0123456789")
    let transport = AsyncHTTPClientTransport(configuration: configuration)

    func once(recording: Bool) async throws -> Double {
        let client = ResponsesClient(
            configuration: configuration, transport: transport, observer: recording ? recorder : nil)
        let start = ContinuousClock.now
        var text = 0
        for try await event in client.stream(CreateResponseRequest(model: "bench", input: "go")) {
            if case .outputTextDelta(let delta) = event.kind { text += delta.delta.utf8.count }
        }
        // The stream is consumed when the terminal event arrives; the recording's last batch is written
        // by then (didFinish returns when it is stored).
        let elapsed = seconds(ContinuousClock.now - start)
        precondition(text > 0)
        return elapsed
    }

    _ = try await once(recording: false)  // warm up the connection pool
    var off: [Double] = []
    var on: [Double] = []
    for _ in 0..<runs {
        off.append(try await once(recording: false))
        on.append(try await once(recording: true))
    }
    await recorder.waitUntilIdle()
    let events = try await store.recentExchanges(limit: 1).first?.eventCount ?? 0
    await transport.shutdown()
    await server.stop()
    let offMedian = median(off)
    let onMedian = median(on)
    print(
        String(
            format: "stream_MB=%.1f events_recorded=%d runs=%d off_median_s=%.3f on_median_s=%.3f slower_percent=%.1f",
            Double(bytes) / 1_048_576, events, runs, offMedian, onMedian, (onMedian / offMedian - 1) * 100))
}

func fill(path: String, count: Int) throws {
    try? FileManager.default.removeItem(atPath: path)
    let store = try InspectorStore.open(at: path)
    let topics = ["pelicans", "glaciers", "compilers", "sourdough", "volcanoes", "tides", "violins", "orbits"]
    let start = ContinuousClock.now
    try store.writer.write { db in
        let exchange = try db.makeStatement(
            sql: """
                INSERT INTO exchange (started_at, method, url, request_headers, request_body, streamed, state, status,
                                      model, input_tokens, output_tokens, duration_ms, ttft_ms, input_text, output_text)
                VALUES (?, 'POST', 'https://api.openai.com/v1/responses', '[]', ?, 1, 'completed', 200, ?, ?, ?, ?, ?, ?, ?)
                """)
        let search = try db.makeStatement(
            sql: "INSERT INTO exchange_fts (rowid, input_text, output_text, event_text) VALUES (?, ?, ?, '')")
        for index in 0..<count {
            let topic = topics[index % topics.count]
            let input = "Tell me something about \(topic), request \(index)"
            let output = "Here are three facts about \(topic): one, two and three (answer \(index))."
            try exchange.execute(arguments: [
                Date(timeIntervalSince1970: 1_790_000_000 + Double(index)),
                #"{"model":"gpt-4.1-mini","input":"\#(input)"}"#,
                "gpt-4.1-mini", 20, 30, 800.0, 200.0, input, output,
            ])
            try search.execute(arguments: [db.lastInsertedRowID, input, output])
        }
    }
    // As a command leaves it: the WAL folded in (closing leaves it in place; see InspectorStore.tidyWAL).
    _ = try store.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    print(String(format: "filled=%d seconds=%.1f path=%@", count, seconds(ContinuousClock.now - start), path))
}

func searchBenchmark(path: String, words: String) async throws {
    let store = try InspectorStore.open(at: path)
    var times: [Double] = []
    var found = 0
    for _ in 0..<20 {
        let start = ContinuousClock.now
        found = try await store.exchanges(matching: ExchangeQuery(search: words, limit: 50)).count
        times.append(seconds(ContinuousClock.now - start) * 1000)
    }
    print(String(format: "search=%@ rows=%d median_ms=%.2f", words, found, median(times)))
}

/// The recorder alone: N delta events handed to one recording, timed until it has stored them all.
func recordBenchmark(events count: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-record-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try InspectorStore.open(at: directory.appendingPathComponent("inspector.sqlite").path)
    let recorder = ExchangeRecorder(store: store)
    let data = Array(
        #"{"type":"response.output_text.delta","sequence_number":7,"item_id":"msg_bench","output_index":0,"content_index":0,"delta":"stream delta tokens ","logprobs":[]}"#
            .utf8)
    let start = ContinuousClock.now
    let recording = await recorder.exchangeWillStart(
        ExchangeRequest(
            startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses", headers: [],
            body: Array("{}".utf8),
            secrets: ["sk-bench-0123456789"], context: ExchangeContext()))
    // As the client hands them over: the events of one network read (64 KB, about 400 events) at a time.
    var read = RecordedEvents()
    for index in 0..<count {
        read.append(
            index: index, offset: .milliseconds(index), type: "response.output_text.delta", sequenceNumber: index,
            data: data, text: "stream delta tokens ")
        if read.count == 400 || index == count - 1 {
            recording.didReceiveEvents(read)
            read.removeAll()
        }
    }
    let handedOff = ContinuousClock.now - start
    await recording.didFinish(ExchangeOutcome(state: .completed, duration: .seconds(1)))
    let total = ContinuousClock.now - start
    print(
        String(
            format: "recorded_events=%d hand_off_s=%.3f stored_s=%.3f per_event_us=%.2f",
            count, seconds(handedOff), seconds(total), seconds(total) / Double(count) * 1e6))
}

switch arguments.first {
case "record":
    try await recordBenchmark(events: arguments.count > 1 ? Int(arguments[1]) ?? 250_000 : 250_000)
case "fill":
    guard arguments.count >= 2 else { fatalError("fill PATH [N]") }
    try fill(path: arguments[1], count: arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000)
case "fill-cache":
    guard arguments.count >= 2 else { fatalError("fill-cache PATH [N]") }
    try fillCache(path: arguments[1], count: arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000)
case "search":
    guard arguments.count >= 3 else { fatalError("search PATH WORDS") }
    try await searchBenchmark(path: arguments[1], words: arguments[2...].joined(separator: " "))
default:
    try await streamBenchmark(
        megabytes: arguments.count > 1 ? Double(arguments[1]) ?? 50 : 50,
        runs: arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
}
