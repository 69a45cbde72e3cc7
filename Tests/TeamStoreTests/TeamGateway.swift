#if TeamInspector
    import Foundation
    import TeamStore
    import TestSupport
    import Testing

    /// A PostgreSQL cluster of a test's own (scripts/postgres.sh), which the test can stop and start again: an
    /// outage of the team's database.
    struct OwnCluster {
        let directory: URL
        let url: String

        static var script: String? { ProcessInfo.processInfo.environment["OPENRESPONSES_POSTGRES_SCRIPT"] }

        init() throws {
            let script = try #require(Self.script, "OPENRESPONSES_POSTGRES_SCRIPT is not set: run scripts/test.sh")
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("openresponses-pg-\(UUID())")
            url = try Self.run(script, "start", directory.appendingPathComponent("cluster").path)
        }

        func pause() throws {
            _ = try Self.run(Self.script!, "pause", directory.appendingPathComponent("cluster").path)
        }
        func resume() throws {
            _ = try Self.run(Self.script!, "resume", directory.appendingPathComponent("cluster").path)
        }
        func stop() {
            _ = try? Self.run(Self.script!, "stop", directory.appendingPathComponent("cluster").path)
            try? FileManager.default.removeItem(at: directory)
        }

        static func run(_ script: String, _ arguments: String...) throws -> String {
            let result = try Subprocess.runBlocking(script, arguments, environment: ["PATH": "/usr/bin:/bin"])
            try #require(
                result.status == 0, "postgres.sh \(arguments.joined(separator: " ")) failed: \(result.stderr)")
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// `openresponses proxy --listen 127.0.0.1:0` running as a user starts it, its output in files.
    final class ProxyProcess: @unchecked Sendable {
        let process = Process()
        let output: URL
        let errors: URL
        private(set) var port = 0

        init(home: URL, environment: [String: String], arguments: [String] = []) throws {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let name = UUID().uuidString
            output = home.appendingPathComponent("proxy-\(name).out")
            errors = home.appendingPathComponent("proxy-\(name).err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: Subprocess.openresponsesBinary)
            process.arguments = ["proxy", "--listen", "127.0.0.1:0"] + arguments
            process.environment =
                ["HOME": home.path, "OPENRESPONSES_HOME": home.path, "PATH": "/usr/bin:/bin"].merging(environment) {
                    $1
                }
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
        }

        /// Waits for the banner and reads the port from it.
        func waitUntilListening() async throws {
            let clock = ContinuousClock()
            let deadline = clock.now + Deadline.generous
            while clock.now < deadline {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                if let match = text.firstMatch(of: #/Proxy on http://127\.0\.0\.1:(\d+)/v1/#), let port = Int(match.1) {
                    self.port = port
                    return
                }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("the proxy did not start: \(stderr)")
            throw SubprocessError("the proxy did not start")
        }

        var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        /// Ctrl-C, and its end waited for.
        func stop() async {
            guard process.isRunning else { return }
            process.interrupt()
            let clock = ContinuousClock()
            let deadline = clock.now + Deadline.generous
            while process.isRunning, clock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            // SIGKILL: proxies of earlier runs (whose pushes had hung) were found still running after them.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }
#endif
