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
            try FileManager.default.createDirectory(at: watcherHome, withIntermediateDirectories: true)
            let output = watcherHome.appendingPathComponent("watch.out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let watch = Process()
            watch.executableURL = URL(fileURLWithPath: Subprocess.openresponsesBinary)
            watch.arguments = ["inspect", "watch"]
            watch.environment = [
                "HOME": watcherHome.path, "OPENRESPONSES_HOME": watcherHome.path, "PATH": "/usr/bin:/bin",
                "OPENRESPONSES_INSPECTOR_URL": teamURL,
            ]
            watch.standardOutput = try FileHandle(forWritingTo: output)
            watch.standardError = watch.standardOutput
            try watch.run()
            defer { if watch.isRunning { watch.terminate() } }
            let text: @Sendable () -> String = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
            try await Deadline.poll("watch started") { text().contains("(Ctrl-C stops).") }
            #expect(text().contains("Watching postgres://"), "\(text())")

            let other = root.appendingPathComponent("other")
            let ask = try await Subprocess.run(
                Subprocess.openresponsesBinary, ["ask", "from another machine"],
                environment: [
                    "HOME": other.path, "OPENRESPONSES_HOME": other.path, "PATH": "/usr/bin:/bin",
                    "OPENAI_BASE_URL": upstream.baseURL, "OPENAI_API_KEY": "sk-watch-test",
                    "OPENRESPONSES_INSPECTOR_URL": teamURL,
                ])
            #expect(ask.status == 0, "\(ask.stderr)")
            try await Deadline.poll("the pushed exchange in watch") { text().contains("← 1 ") }
            #expect(text().contains("POST /v1/responses completed 200"), "\(text())")
            watch.interrupt()
            try await Deadline.poll("watch ended") { !watch.isRunning }
            #expect(watch.terminationStatus == 0, "\(text())")
            #expect(
                !FileManager.default.fileExists(atPath: watcherHome.appendingPathComponent("inspector.sqlite").path))
        }
    }
#endif
