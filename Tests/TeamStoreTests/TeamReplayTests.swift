#if TeamInspector
    import Foundation
    import ResponsesAPI
    import TestSupport
    import Testing

    /// `inspect replay ID` with a team store: ID is the team's, and the exchange may have been recorded on another
    /// machine. It is sent again from here, recorded here, pushed at once, and its team id said; the report of the
    /// team's store then holds both.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamReplayTests {
        @Test func anExchangeAnotherMachineRecordedIsReplayedFromHere() async throws {
            let teamURL = TeamCluster.url(of: try TeamCluster.freshDatabase())
            let upstream = try await LoopbackServer.start(route: answeringRoute { _, input in "echo: \(input)" })
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-replay-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            func machine(_ name: String) -> [String: String] {
                let home = root.appendingPathComponent(name).path
                return [
                    "HOME": home, "OPENRESPONSES_HOME": home, "PATH": "/usr/bin:/bin",
                    "OPENAI_BASE_URL": upstream.baseURL,
                    "OPENAI_API_KEY": "sk-replay-test", "OPENRESPONSES_INSPECTOR_URL": teamURL,
                ]
            }
            let binary = Subprocess.openresponsesBinary
            let ask = try await Subprocess.run(binary, ["ask", "from machine one"], environment: machine("one"))
            #expect(ask.status == 0, "\(ask.stderr)")
            let replay = try await Subprocess.run(
                binary, ["inspect", "replay", "1", "--set", "temperature=0.3"], environment: machine("two"))
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("echo: from machine one"), "\(replay.stdout)")
            #expect(
                replay.stderr.contains("recorded as exchange 2 of the team store (replay of 1;"), "\(replay.stderr)")
            #expect(upstream.requests.count == 2)
            #expect(upstream.requests[1].jsonBody?["temperature"] as? Double == 0.3)
            let list = try await Subprocess.run(binary, ["inspect", "list", "--json"], environment: machine("one"))
            let rows = try JSONValue.parse(list.stdout).arrayValue ?? []
            #expect(rows.count == 2, "\(list.stdout)\(list.stderr)")
            // The report of the team store holds both.
            let page = root.appendingPathComponent("report.html").path
            let report = try await Subprocess.run(
                binary, ["inspect", "report", "-o", page], environment: machine("two"))
            #expect(report.status == 0, "\(report.stderr)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("from machine one") && html.contains("postgres://"))
        }
    }
#endif
