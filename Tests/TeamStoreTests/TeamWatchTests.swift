#if TeamInspector
    import Foundation
    import TestSupport
    import Testing

    /// `inspect watch` on a team store follows the team: an exchange another machine's `ask` pushes is printed
    /// as it arrives (LISTEN/NOTIFY), without the watcher recording anything itself.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamWatchTests {
        @Test func watchPrintsWhatAnotherMachinePushes() async throws {
            let teamURL = TeamCluster.url(of: try TeamCluster.freshDatabase())
            let upstream = try await LoopbackServer.start(route: answeringRoute { _, input in "answer to \(input)" })
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-watch-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let watcherHome = root.appendingPathComponent("watcher")
            let watch = try WatchProcess(home: watcherHome, teamURL: teamURL)
            defer { watch.stop() }
            try await Deadline.poll("watch started") { watch.text.contains("(Ctrl-C stops).") }
            #expect(watch.text.contains("Watching postgres://"), "\(watch.text)")

            let ask = try await TeamCluster.ask(
                "from another machine", home: root.appendingPathComponent("other"), upstream: upstream,
                teamURL: teamURL)
            #expect(ask.status == 0, "\(ask.stderr)")
            try await Deadline.poll("the pushed exchange in watch") { watch.text.contains("← 1 ") }
            #expect(watch.text.contains("POST /v1/responses completed 200"), "\(watch.text)")
            watch.process.interrupt()
            try await Deadline.poll("watch ended") { !watch.process.isRunning }
            #expect(watch.process.terminationStatus == 0, "\(watch.text)")
            #expect(
                !FileManager.default.fileExists(atPath: watcherHome.appendingPathComponent("inspector.sqlite").path))
        }

        /// Pushes from two machines commit in their own order: one that took id 2 and commits after the push
        /// that took id 3 is shown too (the notification names the ids; watch reads a late one by its id).
        @Test func anExchangeCommittedAfterANewerOneIsShown() async throws {
            let teamURL = TeamCluster.url(of: try TeamCluster.freshDatabase())
            let upstream = try await LoopbackServer.start(route: answeringRoute { _, input in "answer to \(input)" })
            defer { Task { await upstream.stop() } }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-watch-\(UUID())")
            defer { try? FileManager.default.removeItem(at: root) }
            let ask = try await TeamCluster.ask(
                "the first", home: root.appendingPathComponent("pusher"), upstream: upstream, teamURL: teamURL)
            try #require(ask.status == 0, "\(ask.stderr)")
            let watcher = try WatchProcess(home: root.appendingPathComponent("watcher"), teamURL: teamURL)
            defer { watcher.stop() }
            try await Deadline.poll("watch started") { watcher.text.contains("(Ctrl-C stops).") }

            // A copy of exchange 1 as another machine's push: origin_id ORIGIN, in a transaction.
            func copy(_ origin: Int) -> String {
                """
                INSERT INTO exchange (origin, origin_id, started_at, method, url, state, streamed, event_count, source,
                    attempt, request_headers, request_body, response_headers, search)
                SELECT 'elsewhere', \(origin), started_at, method, url, state, streamed, event_count, source, attempt,
                    request_headers, request_body, response_headers, search FROM exchange WHERE id = 1 RETURNING id;
                """
            }
            let held = try HeldPSQL(url: teamURL, output: root.appendingPathComponent("held.out"))
            defer { held.stop() }
            try held.send("BEGIN;\n" + copy(1001) + "\n")
            // psql's output to a file is buffered: the identity's sequence (outside transactions) says when the
            // held session took its id.
            try await Deadline.poll("the held push took id 2") {
                try InspectorEngine.psql(
                    teamURL, "SELECT last_value FROM pg_sequences WHERE sequencename LIKE 'exchange_id%'"
                ).hasPrefix("2")
            }
            try InspectorEngine.psql(
                teamURL, "BEGIN; \(copy(1002)) SELECT pg_notify('openresponses_exchange', '3'); COMMIT;")
            do {
                try await Deadline.poll("watch shows 3") { watcher.text.contains("← 3 ") }
            } catch {
                Issue.record("watch printed: \(watcher.text)")
                throw error
            }
            try held.send("SELECT pg_notify('openresponses_exchange', '2'); COMMIT;\n")
            try await held.finish()
            try await Deadline.poll("watch shows the late 2") { watcher.text.contains("← 2 ") }
            let shown = watcher.text.split(separator: "\n").filter { $0.hasPrefix("← ") }.map { $0.prefix(4) }
            #expect(shown == ["← 1 ", "← 3 ", "← 2 "], "each once: \(watcher.text)")
        }
    }

    /// `openresponses inspect watch` on a team store, its output in a file.
    final class WatchProcess: Sendable {
        let process: Process
        let output: URL

        init(home: URL, teamURL: String) throws {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            output = home.appendingPathComponent("watch.out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: Subprocess.openresponsesBinary)
            process.arguments = ["inspect", "watch"]
            process.environment = [
                "HOME": home.path, "OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin",
                "OPENRESPONSES_INSPECTOR_URL": teamURL,
            ]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = process.standardOutput
            try process.run()
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        func stop() { if process.isRunning { process.terminate() } }
    }

    /// A psql session kept open, fed statements as the test goes (a transaction held across other sessions).
    final class HeldPSQL: Sendable {
        let process: Process
        let input: Pipe
        let output: URL

        init(url: String, output: URL) throws {
            var components = URLComponents(string: url)
            let password = components?.password ?? ""
            components?.password = nil
            self.output = output
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            input = Pipe()
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
            process.arguments = [components?.string ?? url, "-v", "ON_ERROR_STOP=1", "-qAt"]
            process.environment = ["PATH": "/usr/bin:/bin", "PGPASSWORD": password]
            process.standardInput = input
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = process.standardOutput
            try process.run()
        }

        var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

        func send(_ sql: String) throws { try input.fileHandleForWriting.write(contentsOf: Data(sql.utf8)) }

        /// Ends the session (psql reads the end of its input), waiting on a thread of its own for psql to exit.
        func finish() async throws {
            try input.fileHandleForWriting.close()
            let process = process
            await Blocking.run { process.waitUntilExit() }
        }

        /// Stops psql if it still runs (a test that failed before `finish`): its transaction is rolled back.
        func stop() { if process.isRunning { process.terminate() } }
    }
#endif
