import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses inspect ...` as a user runs it, against exchanges recorded from a loopback server: each test
/// once with the local SQLite store and once with a team's PostgreSQL (`InspectorEngine`), where every command
/// records locally, pushes at its end, and `inspect` reads the team store.
@Suite("inspect commands")
struct InspectCommandTests {
    let binary = Subprocess.openresponsesBinary

    func run(_ harness: ConsoleHarness, _ arguments: [String], stdin: String? = nil) async throws -> Subprocess.Result {
        try await Subprocess.run(binary, arguments, environment: harness.variables, stdin: stdin)
    }

    @Test(arguments: InspectorEngine.all) func searchAndFiltersFindExchanges(engine: InspectorEngine) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        _ = try await run(harness, ["ask", "--model", "openai/echo", "tell me about pelicans"])
        _ = try await run(harness, ["ask", "--model", "other-model", "and now flamingos"])
        let failing = try await LoopbackServer.start { _ in .jsonFixture("error-model-not-found.json", status: 404) }
        var failingHarness = harness
        failingHarness.baseURLOverride = failing.baseURL
        _ = try await run(failingHarness, ["ask", "zebras"])
        await failing.stop()

        func ids(_ arguments: [String]) async throws -> [Int] {
            let result = try await run(harness, ["inspect", "list", "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try JSONValue.parse(result.stdout).arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        }
        #expect(try await ids([]) == [3, 2, 1])
        // A word of the output (the echo), a word of the input, and words that must all match.
        #expect(try await ids(["--search", "pelicans"]) == [1])
        #expect(try await ids(["--search", "echo flamingos"]) == [2])
        #expect(try await ids(["--search", "pelicans flamingos"]) == [])
        #expect(try await ids(["--search", "does not exist"]) == [3])  // the 404's message is searchable too
        // The model the server says it used (the loopback server answers as test-model); the failed request
        // keeps the model it asked for.
        #expect(try await ids(["--model", "test-model"]) == [2, 1])
        #expect(try await ids(["--model", "gpt-4.1-mini"]) == [3])
        #expect(try await ids(["--status", "failed"]) == [3])
        #expect(try await ids(["--status", "404"]) == [3])
        #expect(try await ids(["--since", "1h"]) == [3, 2, 1])
        #expect(try await ids(["--since", "2999-01-01"]) == [])
        let bad = try await run(harness, ["inspect", "list", "--since", "yesterday-ish"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--since 'yesterday-ish' is not a time"))
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func dumpAsCurlReproducesTheSameRequestBody(engine: InspectorEngine)
        async throws
    {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        let ask = try await run(
            harness, ["ask", "--model", "openai/echo", "--instructions", "it's \"quoted\"", "curl me"])
        #expect(ask.status == 0)
        let curl = try await run(harness, ["inspect", "dump", "1", "--format", "curl"])
        #expect(curl.status == 0, "\(curl.stderr)")
        #expect(curl.stdout.contains("$OPENAI_API_KEY"))
        #expect(!curl.stdout.contains(consoleTestKey))
        let replayed = try await Subprocess.run(
            "/bin/bash", ["-c", curl.stdout], environment: ["PATH": "/usr/bin:/bin", "OPENAI_API_KEY": consoleTestKey])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[1].body == requests[0].body)
        #expect(requests[1].header("authorization") == "Bearer \(consoleTestKey)")
        #expect(replayed.stdout.contains("response.completed"))

        let sse = try await run(harness, ["inspect", "dump", "1", "--format", "sse"])
        let events = sse.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(events.count == Fixtures.textStream(id: "resp_1", text: "echo: curl me").count)
        let har = try JSONValue.parse(try await run(harness, ["inspect", "dump", "1", "--format", "har"]).stdout)
        let entry = try #require(har["log"]?["entries"]?[0])
        #expect(entry["request"]?["method"] == "POST")
        #expect(entry["request"]?["postData"]?["text"] == .string(String(decoding: requests[0].body, as: UTF8.self)))
        #expect(entry["response"]?["status"] == 200)
        // The event listing: one line per event, offsets in one column past #9.
        let long = try await run(
            harness, ["ask", "--model", "openai/echo", "one two three four five six seven eight nine ten"])
        #expect(long.status == 0)
        let listing = try await run(harness, ["inspect", "show", "2", "--events"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let eventLines = listing.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(
            eventLines.count
                == Fixtures.textStream(id: "resp_2", text: "echo: one two three four five six seven eight nine ten")
                .count)
        #expect(eventLines.count > 10)
        let offsetColumns = Set(
            eventLines.map { line in
                line.range(of: " ms  ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            })
        #expect(offsetColumns.count == 1 && !offsetColumns.contains(nil), "\(listing.stdout)")
        let badFormat = try await run(harness, ["inspect", "dump", "1", "--format", "pdf"])
        #expect(
            badFormat.status != 0
                && badFormat.stderr.contains(
                    "The value 'pdf' is invalid for '--format <format>'. Please provide one of 'json', 'curl', 'sse' or 'har'."
                ))
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func diffShowsTheOneSettingThatDiffersAndReplayIsLinked(
        engine: InspectorEngine
    ) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        _ = try await run(harness, ["ask", "--model", "openai/echo", "same words"])
        let replay = try await run(
            harness, ["inspect", "replay", "1", "--set", "temperature=0.2", "--set", "model=openai/echo-2"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == "echo: same words\n")
        let said =
            engine == .sqlite
            ? "recorded as exchange 2 (replay of 1)" : "recorded as exchange 2 of the team store (replay of 1;"
        #expect(replay.stderr.contains(said), "\(replay.stderr)")
        try #require(server.requests.count == 2)
        #expect(server.requests[1].jsonBody?["temperature"] as? Double == 0.2)

        let diff = try await run(harness, ["inspect", "diff", "1", "2"])
        #expect(diff.status == 0, "\(diff.stderr)")
        let requestPart = try #require(diff.stdout.components(separatedBy: "Response").first)
        #expect(requestPart.contains(#"+ temperature: 0.2"#))
        #expect(requestPart.contains(#"~ model: "openai/echo" → "openai/echo-2""#))
        #expect(requestPart.split(separator: "\n").count == 3)  // the header and the two changes, nothing else

        let show = try await run(harness, ["inspect", "show", "2"])
        #expect(show.stdout.contains("replays   exchange 1"))
        let exact = try await run(harness, ["inspect", "replay", "1"])
        #expect(exact.status == 0)
        let requests = server.requests
        try #require(requests.count == 3)
        #expect(requests[2].body == requests[0].body)
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func pruneAndExport(engine: InspectorEngine) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        _ = try await run(harness, ["ask", "one"])
        _ = try await run(harness, ["ask", "two"])
        let export = try await run(harness, ["inspect", "export"])
        let lines = export.stdout.split(separator: "\n")
        try #require(lines.count == 2)
        #expect(try JSONValue.parse(String(lines[0]))["request"]?["body"]?["input"] == "one")
        #expect(try JSONValue.parse(String(lines[1]))["events"]?.arrayValue?.isEmpty == false)
        let prune = try await run(harness, ["inspect", "prune", "--before", "2999-01-01"])
        #expect(prune.stdout.hasPrefix("deleted 2 exchanges"))
        let list = try await run(harness, ["inspect", "list", "--json"])
        #expect(try JSONValue.parse(list.stdout).arrayValue?.isEmpty == true)
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func statsByModelAndDay(engine: InspectorEngine) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        for prompt in ["a", "b", "c"] { _ = try await run(harness, ["ask", prompt]) }
        let stats = try await run(harness, ["inspect", "stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        let groups = try #require(try JSONValue.parse(stats.stdout).arrayValue)
        try #require(groups.count == 1)
        #expect(groups[0]["key"] == "test-model")
        #expect(groups[0]["requests"] == 3)
        #expect(groups[0]["error_rate"]?.doubleValue == 0)
        #expect(groups[0]["input_tokens"] == 36)  // 12 per answer in the fixture
        #expect(
            groups[0]["p95_duration_ms"]?.doubleValue ?? 0 >= groups[0]["p50_duration_ms"]?.doubleValue ?? .infinity)
        #expect(groups[0]["cost_usd"] == .null, "test-model has no price")
        #expect(groups[0]["p50_ttft_ms"]?.doubleValue != nil)
        let byDay = try await run(harness, ["inspect", "stats", "--by", "day"])
        #expect(byDay.stdout.hasPrefix("DAY"))
        let wrong = try await run(harness, ["inspect", "stats", "--by", "week"])
        #expect(
            wrong.status != 0
                && wrong.stderr.contains(
                    "The value 'week' is invalid for '--by <by>'. Please provide one of 'model', 'day', 'preset', 'provider' or 'user'."
                ))
        await server.stop()
    }

    /// A priced model's answers, each with a pause of 300 ms before its first word: the cost is the usage
    /// priced per million tokens, and the time to first text is at least the pause.
    @Test(arguments: InspectorEngine.all) func statsGiveThePricedCostAndTheTimeToFirstText(engine: InspectorEngine)
        async throws
    {
        let counter = Counter()
        let server = try await LoopbackServer.start { _ in
            let frames = Fixtures.textStream(
                id: "resp_\(counter.next())", model: "gpt-4.1-mini-2025-04-14", text: "priced answer"
            )
            .map { $0.replacingOccurrences(of: #""input_tokens":12,"#, with: #""input_tokens":1000000,"#) }
            let parts: [Reply.Part] =
                frames.prefix(4).map { .bytes(Array($0.utf8)) } + [.pause(.milliseconds(300))]
                + frames.dropFirst(4).map { .bytes(Array($0.utf8)) }
            return Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: parts)
        }
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        for prompt in ["a", "b"] {
            let ask = try await run(harness, ["ask", "--model", "gpt-4.1-mini", prompt])
            #expect(ask.status == 0, "\(ask.stderr)")
        }
        // Each: 999,998 input tokens at $0.40, 2 cached at $0.10, 2 output at $1.60, per million.
        let each = (999_998 * 0.40 + 2 * 0.10 + 2 * 1.60) / 1_000_000
        let list = try await run(harness, ["inspect", "list", "--json"])
        let rows = try #require(try JSONValue.parse(list.stdout).arrayValue)
        try #require(rows.count == 2)
        for row in rows {
            let cost = try #require(row["cost_usd"]?.doubleValue)
            #expect(abs(cost - each) < 1e-9, "cost_usd \(cost), expected \(each)")
            #expect((row["ttft_ms"]?.doubleValue ?? 0) >= 300)
        }
        let stats = try await run(harness, ["inspect", "stats", "--json"])
        let groups = try #require(try JSONValue.parse(stats.stdout).arrayValue)
        try #require(groups.count == 1)
        #expect(groups[0]["key"] == "gpt-4.1-mini-2025-04-14")
        #expect(groups[0]["input_tokens"] == 2_000_000)
        let total = try #require(groups[0]["cost_usd"]?.doubleValue)
        #expect(abs(total - 2 * each) < 1e-9, "cost_usd \(total), expected \(2 * each)")
        #expect((groups[0]["p50_ttft_ms"]?.doubleValue ?? 0) >= 300)
        #expect((groups[0]["p95_ttft_ms"]?.doubleValue ?? 0) >= 300)
        let text = try await run(harness, ["inspect", "stats"])
        let line = try #require(
            text.stdout.split(separator: "\n").first { $0.hasPrefix("gpt-4.1-mini-2025-04-14 ") }, "\(text.stdout)")
        #expect(line.contains(" $0.8000 "), "\(line)")
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func fourProcessesWritingTwentyFiveExchangesEachLeaveOneHundredRows(
        engine: InspectorEngine
    ) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        _ = try await run(harness, ["ask", "create the store first"])
        let script =
            "for p in 1 2 3 4; do (for i in $(seq 25); do \"$BIN\" ask \"process $p turn $i\" >/dev/null || echo FAIL; done) & done; wait"
        var environment = harness.variables
        environment["BIN"] = binary
        let result = try await Subprocess.run("/bin/bash", ["-c", script], environment: environment)
        #expect(!result.stdout.contains("FAIL"), "\(result.stderr)")
        let store = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        let rows = try await store.exchanges(matching: ExchangeQuery(limit: 1000))
        #expect(rows.count == 101)
        #expect(rows.allSatisfy { $0.state == "completed" })
        // Four processes pushing one store at once: each exchange in the team store once.
        let listed = try await run(harness, ["inspect", "list", "--json", "--limit", "1000"])
        let ids = try JSONValue.parse(listed.stdout).arrayValue?.compactMap { $0["response_id"]?.stringValue } ?? []
        #expect(ids.count == 101 && Set(ids).count == 101, "\(listed.stderr)")
        await server.stop()
    }

    @Test(arguments: InspectorEngine.all) func theKeyIsNowhereInTheDataDirectoryAfterEveryCommand(
        engine: InspectorEngine
    ) async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = try engine.variables()
        defer { harness.remove() }
        _ = try await run(harness, ["ask", "mention \(consoleTestKey) in the prompt"])
        _ = try await run(harness, ["ask", "--no-stream", "whole"])
        for arguments in [
            ["inspect", "list"], ["inspect", "show", "1"], ["inspect", "dump", "1", "--format", "har"],
            ["inspect", "dump", "1", "--format", "curl"], ["inspect", "replay", "1"], ["inspect", "diff", "1", "2"],
            ["inspect", "export"],
        ] {
            let result = try await run(harness, arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains(consoleTestKey), "\(arguments) printed the key")
        }
        #expect(try !harness.dataDirectoryContains(consoleTestKey))
        if let url = harness.extraVariables["OPENRESPONSES_INSPECTOR_URL"] {
            #expect(try !InspectorEngine.teamStore(url, contains: consoleTestKey), "nor in the team store")
            #expect(try !InspectorEngine.psql(url, "SELECT count(*) FROM exchange").hasPrefix("0"))
        }
        await server.stop()
    }
}
