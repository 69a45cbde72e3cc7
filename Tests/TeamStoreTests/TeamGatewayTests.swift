#if TeamInspector
    import Foundation
    import Inspector
    import ResponsesAPI
    import TeamStore
    import TestSupport
    import Testing

    /// The acceptance of the team's gateway: 4 proxy processes (two on each of two homes, as on two machines)
    /// × 50 concurrent streamed requests from the official Python SDK, against a loopback server; the team's
    /// PostgreSQL stopped for 10 s in the middle of the run and started again. Every answer arrives whole while
    /// the database is down, and every exchange reaches it afterwards with every event: 200 of 200.
    @Suite(.enabled(if: TeamCluster.enabled && PythonSDK.isAvailable))
    struct TeamGatewayTests {
        static let words = (0..<33).map { "w\($0)" }.joined(separator: " ")
        static let frames = Fixtures.textStream(id: "resp_0", model: "gpt-4.1-mini", text: words).count

        @Test func fourProxiesFiftyStreamsEachAndAnOutageLoseNothing() async throws {
            let cluster = try OwnCluster()
            defer { cluster.stop() }
            let database = "gateway"
            try TeamCluster.psql(cluster.url, "CREATE DATABASE \(database)")
            let teamURL = cluster.url.replacingOccurrences(of: "/postgres", with: "/\(database)")
            let counter = Counter()
            // An answer of `frames` events, paced, so that each stream is open for about a second.
            let upstream = try await LoopbackServer.start { _ in
                .sse(
                    Fixtures.textStream(id: "resp_\(counter.next())", model: "gpt-4.1-mini", text: Self.words),
                    pause: .milliseconds(25))
            }
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-gw-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let environment = [
                "OPENAI_BASE_URL": upstream.baseURL, "OPENAI_API_KEY": "sk-upstream-test",
                "OPENRESPONSES_INSPECTOR_URL": teamURL,
            ]
            var proxies: [ProxyProcess] = []
            for index in 0..<4 {
                proxies.append(
                    try ProxyProcess(home: root.appendingPathComponent("home\(index % 2)"), environment: environment))
            }
            // Whatever ends the test, no proxy is left running.
            defer {
                for proxy in proxies where proxy.process.isRunning { kill(proxy.process.processIdentifier, SIGKILL) }
            }
            for proxy in proxies { try await proxy.waitUntilListening() }
            let ports = proxies.map(\.port)

            let before = try await Self.requests(ports: ports, each: 25, tag: "before")
            try cluster.pause()
            let outage = ContinuousClock.now
            let during = try await Self.requests(ports: ports, each: 25, tag: "during")
            try await Task.sleep(until: outage + .seconds(10))
            try cluster.resume()

            for (wave, results) in [("before", before), ("during", during)] {
                #expect(results.count == 100, "\(wave)")
                let whole = results.filter { $0["ok"]?.boolValue == true && $0["events"]?.intValue == Self.frames }
                #expect(whole.count == 100, "\(wave): \(results.prefix(3))")
            }

            // Every exchange in the team store, each with every event.
            let address = try TeamStoreAddress(parsing: teamURL, origin: "test")
            let said = { proxies.map(\.stderr).joined() }
            try await TeamStore.with(address) { team in
                do {
                    try await Deadline.poll(
                        within: .seconds(90), every: .milliseconds(500), "200 exchanges in the team"
                    ) {
                        try await team.exchanges(matching: ExchangeQuery(limit: 1000, source: "proxy")).count >= 200
                    }
                } catch {
                    let count = try await team.exchanges(matching: ExchangeQuery(limit: 1000, source: "proxy")).count
                    Issue.record("\(count) of 200 in the team store; the proxies said: \(said())")
                    throw error
                }
                let all = try await team.exchanges(matching: ExchangeQuery(limit: 1000, source: "proxy"))
                #expect(all.count == 200)
                #expect(Set(all.compactMap(\.responseId)).count == 200)
                #expect(all.allSatisfy { $0.state == "completed" && $0.eventCount == Self.frames })
                for row in all.prefix(20) {
                    let detail = try #require(try await team.exchange(id: row.id))
                    #expect(detail.events.count == Self.frames, "exchange \(row.id)")
                }
            }
            for proxy in proxies { await proxy.stop() }
            #expect(said().contains("exchanges wait in"), "\(said())")
            #expect(said().contains("is back;"), "\(said())")
        }

        /// `each` concurrent streamed requests through each port, all at once, from the official Python SDK.
        static func requests(ports: [Int], each: Int, tag: String) async throws -> [JSONValue] {
            let script = """
                import json, sys, time, concurrent.futures
                from openai import OpenAI
                ports = json.loads(sys.argv[1]); each = int(sys.argv[2]); tag = sys.argv[3]
                clients = {p: OpenAI(base_url=f"http://127.0.0.1:{p}/v1", api_key="sk-client", max_retries=0,
                                     timeout=120) for p in ports}
                def one(port, i):
                    start = time.monotonic(); first = None; events = 0; text = []
                    try:
                        stream = clients[port].responses.create(model="gpt-4.1-mini", input=f"{tag}-{port}-{i}",
                                                                 stream=True)
                        for event in stream:
                            events += 1
                            if first is None: first = time.monotonic()
                            if event.type == "response.output_text.delta": text.append(event.delta)
                        return {"ok": True, "events": events, "ttfb_ms": (first - start) * 1000,
                                "total_ms": (time.monotonic() - start) * 1000}
                    except Exception as e:
                        return {"ok": False, "error": repr(e)[:300]}
                with concurrent.futures.ThreadPoolExecutor(max_workers=len(ports) * each) as pool:
                    futures = [pool.submit(one, p, i) for p in ports for i in range(each)]
                    print(json.dumps([f.result() for f in futures]))
                """
            let python = try #require(PythonSDK.python, "the OpenAI Python SDK is not installed")
            let result = try await Subprocess.run(
                python, ["-c", script, "\(ports)", "\(each)", tag], environment: ["PATH": "/usr/bin:/bin"])
            try #require(result.status == 0, "python: \(result.stderr)")
            let results = try JSONValue.parse(Array(result.stdout.utf8)).arrayValue ?? []
            #expect(
                results.count == ports.count * each, "python printed: \(result.stdout.prefix(500)) \(result.stderr)")
            return results
        }
    }
#endif
