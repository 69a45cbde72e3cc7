import Foundation
import TestSupport
import Testing

/// Issue 43 against the built binary on a terminal (tmux, its raw output recorded): an image a hostile
/// server (`HostileServer`) names with a path. Its other findings, off a terminal, are in BinaryTests; the
/// control sequences and approval prompts are in HostileTerminalTests.
@Suite("a hostile server (binary)")
struct HostileServerTests {
    /// Runs the binary with `arguments` in a real terminal (tmux) from `folder`, its raw output recorded;
    /// returns that output once it exited.
    static func onTerminal(_ harness: ConsoleHarness, _ arguments: [String], in folder: URL? = nil) async throws
        -> String
    {
        let tmux = try TmuxSession()
        defer { tmux.kill() }
        let raw = harness.home.appendingPathComponent("terminal-\(UUID().uuidString).out")
        try FileManager.default.createDirectory(at: folder ?? harness.home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        try await tmux.waitFor("$ ", timeout: .seconds(60))
        try tmux.recordOutput(to: raw)
        let env = harness.variables.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
            separator: " ")
        try tmux.type(
            "cd '\((folder ?? harness.home).path)' && env \(env) \(Subprocess.openresponsesBinary) \(quoted); echo EXITED-$?"
        )
        // The typed line holds `EXITED-$?` too: the command has ended when a digit follows.
        try await tmux.waitFor(timeout: .seconds(60), "the command's end") {
            $0.range(of: "EXITED-[0-9]", options: .regularExpression) != nil
        }
        defer { try? FileManager.default.removeItem(at: raw) }
        // The recording (tmux's pipe to cat) can lag the screen: wait until it holds the end marker too.
        let deadline = ContinuousClock.now + .seconds(20)
        var recorded = ""
        repeat {
            recorded = String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self)
            if recorded.range(of: "EXITED-[0-9]", options: .regularExpression) != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return recorded
    }

    /// Finding 1: an image's id `../../../../` and format `bashrc_pwned` wrote the server's bytes four
    /// folders above the images folder (`ask` on a terminal). Now the file lands in the images folder, under
    /// a safe name, and a second one of the same id beside it, never over it.
    @Test func anImagesIdAndFormatAreNeverAPath() async throws {
        var harness = try await HostileServer.harness()
        defer { harness.remove() }
        // The data directory four folders down, so that the old code's write stayed inside the test's folder.
        let data = harness.home.appendingPathComponent("a/b/c/d", isDirectory: true)
        harness.extraVariables["OPENRESPONSES_HOME"] = data.path
        let shown = try await Self.onTerminal(harness, ["ask", "draw an image"])
        _ = try await Self.onTerminal(harness, ["ask", "draw an image"])
        await harness.server.stop()
        let written = HostileServer.files(under: harness.home).filter {
            !$0.contains(".sqlite") && !$0.hasSuffix(".lock")
        }
        let images = written.filter { $0.hasPrefix("a/b/c/d/images/") }.sorted()
        #expect(images.count == 2, "\(written) \(shown)")
        #expect(!written.contains { $0.contains("bashrc") }, "\(written)")
        for saved in images {
            #expect(saved.hasSuffix(".bin"), "an unknown format is saved as .bin: \(saved)")
            #expect(
                try String(contentsOf: harness.home.appendingPathComponent(saved), encoding: .utf8)
                    == HostileServer.payload)
        }
        #expect(
            images.contains { shown.contains("saved to \(harness.home.appendingPathComponent($0).path)") }, "\(shown)")
    }
}
