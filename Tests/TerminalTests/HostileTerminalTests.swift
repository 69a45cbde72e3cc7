import Foundation
import TestSupport
import Testing

/// Issue 43's terminal findings against the built binary in a real terminal (tmux, its raw output
/// recorded): nothing a server, a model or a document sends reaches the terminal as a control sequence,
/// and an approval prompt shows the whole call.
@Suite("a hostile server on a terminal (binary, tmux)")
struct HostileTerminalTests {
    /// The attack's sequences that must never reach the terminal raw.
    static let forbidden = ["\u{1B}]52", "\u{1B}[2J", "\u{9B}", "\u{1B}[2K", "\rX"]

    /// The forbidden sequences found in what the programs wrote (not in the shell's echo of the typed line).
    static func rawSequences(in recorded: String) -> [String] {
        let output = TmuxSession.programsOutput(recorded)
        return forbidden.filter { output.contains($0) }.map {
            $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
        }
    }

    /// Once the shell prompts, records what the programs write into `raw` and runs `ask ARGUMENTS; echo
    /// EXITED-$?` with `harness`'s environment; returns the screen and its line holding `[y/N]` once it shows.
    static func askToApprove(
        _ arguments: String, in tmux: TmuxSession, harness: ConsoleHarness, recordingTo raw: URL
    ) async throws -> (screen: String, prompt: String) {
        try await tmux.waitFor("$ ", timeout: .seconds(60))
        try tmux.recordOutput(to: raw)
        try await tmux.runBinary("ask \(arguments); echo EXITED-$?", environment: harness.variables)
        let screen = try await tmux.waitFor("[y/N]", timeout: .seconds(60))
        return (screen, screen.split(separator: "\n").first { $0.contains("[y/N]") }.map(String.init) ?? "")
    }

    /// Answers an approval prompt with `n` and waits until the command has ended: its line's `marker-$?`
    /// (`EXITED`) shows with a digit after it (the typed line shows it with `$?`). With `harness`, the last
    /// command: stops its server and expects none of the forbidden sequences in what was recorded in `raw`.
    static func decline(
        in tmux: TmuxSession, until marker: String, finishing harness: ConsoleHarness? = nil,
        recordedIn raw: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try tmux.type("n")
        try await tmux.waitFor(timeout: .seconds(60), "\(marker): the command's end") {
            $0.range(of: "\(marker)-[0-9]", options: .regularExpression) != nil
        }
        guard let harness, let raw else { return }
        await harness.server.stop()
        let sequences = rawSequences(in: String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self))
        #expect(sequences.isEmpty, "\(sequences)", sourceLocation: sourceLocation)
    }

    /// bash redraws a long typed line with a carriage return before the character at each wrap (seen in CI
    /// when `EXITED` wrapped after its E): that echo is the shell's, not a program's output.
    @Test func theShellsEchoOfATypedLineIsNotAProgramsOutput() {
        let recorded = "$ \u{1B}[?2004hecho aaEX\rXITED-$?\r\n\u{1B}[?2004l\rX\u{1B}[2K\r\n\u{1B}[?2004h$ "
        #expect(Self.rawSequences(in: recorded) == ["1b 5b 32 4b", "d 58"])
        #expect(Self.rawSequences(in: recorded.replacingOccurrences(of: "\rX\u{1B}[2K", with: "ok")).isEmpty)
    }

    /// Finding 2: arguments holding a carriage return and ESC[2K erased the start of the approval line, so
    /// the terminal showed only `{"x":"harmless"})? [y/N]`. Now the whole call shows, its controls as pictures.
    @Test func theApprovalPromptShowsTheWholeCall() async throws {
        let harness = try await HostileServer.harness()
        defer { harness.remove() }
        let tmux = try TmuxSession(width: 200)
        defer { tmux.kill() }
        let raw = harness.home.appendingPathComponent("prompt.out")
        // A preset of the user's whose handler asks before it runs (the shipped ones are trusted).
        try harness.writeFunctionPreset("asks", handler: #"{command: [sh, -c, "echo ran"]}"#)
        let (screen, promptLine) = try await Self.askToApprove(
            "--preset asks 'approve this'", in: tmux, harness: harness, recordingTo: raw)
        #expect(
            promptLine.contains(#"Run local_time({"cmd":"rm -rf ~/important","x":␍␛[2K{"x":"harmless"})? [y/N]"#),
            "\(screen)")
        try await Self.decline(in: tmux, until: "EXITED")
        // Valid JSON whose 80 line feeds would scroll the command away: shown compact, on one line.
        try await tmux.runBinary("ask --preset asks 'newlines'; echo SECOND-$?", environment: harness.variables)
        let second = try await tmux.waitFor(timeout: .seconds(60), "the second prompt") {
            $0.contains("read_file") && $0.contains("[y/N]")
        }
        let secondLine =
            second.split(separator: "\n").first { $0.contains("read_file") && $0.contains("[y/N]") }.map(String.init)
            ?? ""
        #expect(
            secondLine.contains(
                #"Run local_time({"cmd":"rm -rf ~/important","Run read_file":{"path":"notes.txt"}})? [y/N]"#),
            "\(second)")
        try await Self.decline(in: tmux, until: "SECOND", finishing: harness, recordedIn: raw)
    }

    /// Finding 2, for MCP: a server label and arguments holding control sequences asked "Allow …" with
    /// them raw. Now the whole request shows, its controls as pictures.
    @Test func theMCPApprovalPromptShowsTheWholeRequest() async throws {
        let harness = try await HostileServer.harness()
        defer { harness.remove() }
        let tmux = try TmuxSession(width: 220)
        defer { tmux.kill() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let raw = harness.home.appendingPathComponent("mcp.out")
        let (screen, promptLine) = try await Self.askToApprove(
            "'mcp please'", in: tmux, harness: harness, recordingTo: raw)
        #expect(promptLine.hasPrefix("Allow docs␛]52;c;cHduZWQ=␇␛[2J"), "\(screen)")
        #expect(
            promptLine.contains(#"to run delete_all({"cmd":"rm -rf ~/important","x":␍␛[2K{"x":"harmless"})? [y/N]"#),
            "\(screen)")
        try await Self.decline(in: tmux, until: "EXITED", finishing: harness, recordedIn: raw)
    }

    /// Finding 3: OSC 52, clear-screen and C1 CSI came through raw in API errors, a failed response, an
    /// HTML error body, the inspector's lists and details, the library's search and list, and server file
    /// names. Every one of those commands, on a terminal, now shows them as pictures.
    @Test func noCommandLetsAServersControlSequencesThrough() async throws {
        let harness = try await HostileServer.harness()
        defer { harness.remove() }
        let documents = harness.home.appendingPathComponent("docs", isDirectory: true)
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        // A document whose text and whose very name hold the sequences (HTML's `&#27;` decodes to ESC).
        try
            "<html><body><h1>Clipboard</h1><p>clipboard &#27;]52;c;cHduZWQ=&#7; &#27;[2J &#155;31m text</p></body></html>"
            .write(to: documents.appendingPathComponent("page\u{1B}[2J.html"), atomically: true, encoding: .utf8)
        let commands: [[String]] = [
            ["ask", "apierror"], ["ask", "failed"], ["ask", "htmlerror"], ["ask", "hello"],
            ["inspect", "list"], ["inspect", "show", "4"], ["inspect", "list", "--search", "fine"], ["files", "list"],
            ["library", "add", documents.path], ["library", "search", "clipboard"], ["library", "list"],
            ["library", "ask", "clipboard"],
        ]
        var failures: [String] = []
        var shownCounts: [String] = []
        var output = ""
        for command in commands {
            let shown = try await HostileServerTests.onTerminal(harness, command)
            output += shown
            shownCounts.append("\(command): \(shown.components(separatedBy: "␛]52").count - 1)")
            let raw = Self.rawSequences(in: shown)
            if !raw.isEmpty { failures.append("\(command): \(raw)") }
        }
        await harness.server.stop()
        #expect(failures.isEmpty, "\(failures)")
        // The sequences were there to clean: each command showed them as pictures.
        #expect(output.components(separatedBy: "␛]52").count - 1 >= 8, "\(shownCounts)")
        // library search's match marks are bold, not their control pictures.
        #expect(!output.contains("␂") && !output.contains("␃"), "\(shownCounts)")
    }
}
