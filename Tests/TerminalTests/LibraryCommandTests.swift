import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses library add` on a terminal (tmux, its raw output recorded): the progress line is drawn in
/// place, and Ctrl-C keeps the files done before it. The command off a terminal is in BinaryTests.
@Suite("library add from the command line")
struct LibraryCommandTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-libcmd-\(UUID().uuidString)", isDirectory: true)

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func onATerminalTheProgressLineShowsAndCtrlCKeepsWhatWasDone() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("pdfs", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // PDFs of twenty pages: each takes poppler a process per page (150 of them take 20 s here), so the
        // batch is still running when Ctrl-C comes, even when a loaded machine makes the test slow to look.
        for index in 1...150 {
            try PDFWriter.text(
                pages: (1...20).map { page in ["Note \(index), page \(page), about otters and their dens."] }
            )
            .write(to: folder.appendingPathComponent(String(format: "note-%03d.pdf", index)))
        }
        let tmux = try TmuxSession()
        defer { tmux.kill() }
        try await tmux.waitFor("$ ", timeout: .seconds(60))
        // What reaches the terminal, byte for byte: the progress line is redrawn in place and cleared before
        // each file's line, so a screen capture can miss it on a loaded machine; the recording cannot.
        let raw = home.appendingPathComponent("terminal.raw")
        try tmux.recordOutput(to: raw)
        try tmux.type(
            "OPENRESPONSES_HOME='\(home.path)' HOME='\(home.path)' \(Subprocess.openresponsesBinary) library add '\(folder.path)'"
        )
        // Ctrl-C once the third file is on the screen (a capture sees that at once; the recording of the
        // terminal can lag behind it, so the progress line is looked for in it afterwards). Watched from a
        // thread of its own: when the whole suite runs, other suites' synchronous work can hold this test's
        // cooperative threads for longer than the batch takes, and Ctrl-C then came after its last file.
        let pressed = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline {
                    if let screen = try? tmux.screen(), screen.contains("[3/150] added") {
                        done.resume(returning: (try? tmux.press("C-c")) != nil)
                        return
                    }
                    usleep(20_000)
                }
                done.resume(returning: false)
            }
        }
        try #require(pressed, "the third file's line never showed: \((try? tmux.screen()) ?? "")")
        let screen = try await tmux.waitFor("; kept what was done:", timeout: .seconds(60))
        // The progress line, drawn in place on the terminal, with the rate and the time left.
        try await Deadline.poll("the progress line in the terminal's recording") {
            let progressLine =
                /\r\x1B\[K\[(?:[1-9]|[1-9]\d+)\/150\] \d+ pages, \d+ chunks · [\d.]+ files\/s · \d+ s left/
            return String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self).contains(progressLine)
        }
        try await tmux.send("echo status=$?", until: "status=130")
        let kept = try #require(screen.firstMatch(of: /Interrupted after (\d+) of 150 files/).flatMap { Int($0.1) })
        #expect(kept >= 3 && kept < 150)
        let list = try await Subprocess.openresponses(["library", "list", "--json"], home: home)
        let documents = try #require(JSONValue.parse(Array(list.stdout.utf8)).arrayValue)
        #expect(documents.count == kept, "the files done before Ctrl-C stay, and no other")
        #expect(documents.allSatisfy { $0["status"] == "indexed" })
    }
}
