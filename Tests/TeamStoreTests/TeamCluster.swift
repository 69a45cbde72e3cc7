#if TeamInspector
    import Foundation
    import Inspector
    import ResponsesAPI
    import TeamStore
    import TestSupport
    import Testing

    /// The PostgreSQL cluster scripts/test.sh starts (scripts/postgres.sh) for these suites: its URL in
    /// OPENRESPONSES_TEST_POSTGRES_URL. Without it they are skipped, unless OPENRESPONSES_REQUIRE_POSTGRES=1 (set by
    /// the test script), where they fail instead: CI never skips them silently.
    enum TeamCluster {
        static let environment = ProcessInfo.processInfo.environment
        static var url: String? { environment["OPENRESPONSES_TEST_POSTGRES_URL"] }
        /// Whether the suites run: a cluster is there, or one is required (and its absence fails them).
        static var enabled: Bool { url != nil || environment["OPENRESPONSES_REQUIRE_POSTGRES"] == "1" }

        /// A new, empty database on the cluster, for one test.
        static func freshDatabase() throws -> TeamStoreAddress {
            let url = try #require(url, "OPENRESPONSES_TEST_POSTGRES_URL is not set: run scripts/test.sh")
            let cluster = try TeamStoreAddress(parsing: url, origin: "OPENRESPONSES_TEST_POSTGRES_URL")
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try psql(url, "CREATE DATABASE \(name)")
            return cluster.database(name)
        }

        /// Runs `sql` with psql (the cluster's own client) against `url`.
        static func psql(_ url: String, _ sql: String) throws {
            try InspectorEngine.psql(url, sql)
        }

        /// `openresponses ask PROMPT` by a user whose data directory is `home` and whose inspector is the team store
        /// at `teamURL`, against `upstream`.
        static func ask(_ prompt: String, home: URL, upstream: LoopbackServer, teamURL: String) async throws
            -> Subprocess.Result
        {
            try await Subprocess.run(
                Subprocess.openresponsesBinary, ["ask", prompt],
                environment: [
                    "HOME": home.path, "OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin",
                    "OPENAI_BASE_URL": upstream.baseURL, "OPENAI_API_KEY": "sk-team-test",
                    "OPENRESPONSES_INSPECTOR_URL": teamURL,
                ])
        }

        /// The URL of `address` with the cluster's password, for psql.
        static func url(of address: TeamStoreAddress) -> String {
            "postgres://\(address.user):\(address.password ?? "")@\(address.host):\(address.port)/\(address.database)"
        }
    }

    /// A local store with a few exchanges of every kind recorded through the real client from a loopback
    /// server: a streamed answer, a JSON answer, a failed request (a 429 with a JSON error), and one whose
    /// texts carry what PostgreSQL's `text` cannot hold (U+0000) and what a search must not take as syntax.
    struct RecordedHistory {
        let directory: URL
        let store: InspectorStore
        let recorder: ExchangeRecorder

        init() throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("openresponses-team-\(UUID().uuidString)", isDirectory: true)
            store = try InspectorStore.open(at: directory.appendingPathComponent("inspector.sqlite").path)
            recorder = ExchangeRecorder(store: store)
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }

        /// Records `streamed` streamed turns answering `words`, one JSON answer, one 429 and one hostile answer.
        func record(streamed: Int = 3) async throws {
            let server = try await LoopbackServer.start { request in
                let body = (try? JSONValue.parse(request.body)) ?? .null
                let input = body["input"]?.stringValue ?? ""
                if input == "limit" {
                    return .json(
                        #"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
                        status: 429)
                }
                let text =
                    input == "hostile"
                    ? "gpt-4.1 at https://api.example.com/v1 alice@example.com src/main.swift & | ! ( ) :* 'quoted' \\ ünïcödé nul\u{0}byte"
                    : "answer to \(input) with words"
                let frames = Fixtures.textStream(
                    id: "resp_\(UUID().uuidString.prefix(8))", model: "gpt-4.1-mini", text: text)
                guard body["stream"]?.boolValue == false else { return .sse(frames) }
                let data = frames.last!.split(separator: "\n").first(where: { $0.hasPrefix("data: ") })!.dropFirst(6)
                return .json((try? JSONValue.parse(Array(data.utf8)))?["response"]?.compactString ?? "{}")
            }
            defer { Task { await server.stop() } }
            var configuration = Configuration(
                baseURL: server.baseURL, apiKey: "sk-team-test", readTimeout: .seconds(60))
            configuration.retryPolicy.maxRetries = 0
            let transport = AsyncHTTPClientTransport(configuration: configuration)
            let client = ResponsesClient(configuration: configuration, transport: transport, observer: recorder)
            for turn in 0..<streamed {
                for try await _ in client.stream(
                    CreateResponseRequest(model: "gpt-4.1-mini", input: .string("turn\(turn)")))
                {}
            }
            _ = try await client.create(CreateResponseRequest(model: "gpt-4.1-mini", input: "whole"))
            _ = try? await client.create(CreateResponseRequest(model: "gpt-4.1-mini", input: "limit"))
            for try await _ in client.stream(CreateResponseRequest(model: "gpt-4.1-mini", input: "hostile")) {}
            guard await recorder.waitUntilIdle(timeout: Deadline.generous) else {
                throw DeadlineExceeded(what: "the recorder writing every exchange", timeout: Deadline.generous)
            }
            await transport.shutdown()
        }
    }
#endif
