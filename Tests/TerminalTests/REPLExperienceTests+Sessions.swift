import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The REPL's longer sessions: the Conversations API, the editor, history and resume; Ctrl-C at each moment;
/// stores and file search.
extension REPLExperienceTests {
    @Test func conversationsAPIEditorHistoryAndResume() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let editor = harness.home.appendingPathComponent("fake-editor.sh")
        try "#!/bin/sh\nprintf 'written in the editor\\n' > \"$1\"\n".write(
            to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        harness.extraVariables = ["EDITOR": editor.path]
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }

        try tmux.type("/conversation new")
        try await tmux.waitFor("Turns now go to conversation conv_1.")
        try tmux.type("in a conversation")
        try await tmux.waitFor("echo: in a conversation")
        let body = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(body["conversation"] == "conv_1")
        #expect(body["previous_response_id"] == nil)

        try tmux.type("/edit")
        try await tmux.waitFor("echo: written in the editor")

        try tmux.type("/new")
        try tmux.type("/history")
        let history = try await tmux.waitFor("/resume ID continues one")
        let line = try #require(
            history.split(separator: "\n").first { $0.hasPrefix("  ") && $0.contains("in a conversation") })
        let id = try #require(line.split(separator: " ").first.map(String.init))
        try tmux.type("/resume \(id)")
        try await tmux.waitFor("the next turn continues from resp_")
        try tmux.type("after resume")
        try await tmux.waitFor("echo: after resume")
        let resumed = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(resumed["previous_response_id"]?.stringValue?.hasPrefix("resp_") == true)
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func ctrlCDetachesFromABackgroundResponseAndCancelCancelsIt() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/bg on")
        try tmux.type("background work")
        try await tmux.waitFor("w3 ")
        try tmux.press("C-c")
        try await tmux.waitFor(
            "[detached from resp_bg: it goes on on the server · /attach-job resp_bg follows it · Ctrl-C again or /cancel cancels it]"
        )
        #expect(
            !server.requests.contains { $0.path == "/v1/responses/resp_bg/cancel" },
            "Ctrl-C does not cancel a background response")
        try tmux.press("C-c")
        try await tmux.waitFor("[cancelled resp_bg on the server]")
        #expect(server.requests.contains { $0.method == "POST" && $0.path == "/v1/responses/resp_bg/cancel" })
        try tmux.type("/cancel")
        try await tmux.waitFor("usage: /cancel [RESPONSE_ID]")
        // An id (not the job just detached from) is cancelled on the provider the ledger names for it.
        try tmux.type("/cancel resp_bg")
        try await tmux.waitFor("Cancelled resp_bg (status: ")
        try tmux.type("/bg")
        try await tmux.waitFor("usage: /bg on|off (now on)")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func storesUseTurnsFileSearchOnAndOffAndFilesCommandsWork() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/stores use vs_a", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("> /stores use vs_alpha ")
        try tmux.press("C-u")
        try tmux.type("/stores use vs_alpha,vs_beta")
        try await tmux.waitFor("file_search now searches vs_alpha, vs_beta.")
        try tmux.type("/stores")
        try await tmux.waitFor("file_search uses: vs_alpha, vs_beta")
        try tmux.type("search my files")
        try await tmux.waitFor("echo: search my files")
        let body = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(body["tools"] == [["type": "file_search", "vector_store_ids": ["vs_alpha", "vs_beta"]]])
        try tmux.type("/stores use none")
        try await tmux.waitFor("file_search is off")
        try tmux.type("plain again")
        try await tmux.waitFor("echo: plain again")
        #expect(try JSONValue.parse(try #require(server.requests.last).body)["tools"] == nil)
        try tmux.type("/files list")
        try await tmux.waitFor("file-9  notes.pdf  2.0 KB  user_data")
        try tmux.type("/stores list")
        try await tmux.waitFor("vs_alpha  alpha  2/2 files  completed")
        try tmux.type("/files frobnicate")
        try await tmux.waitFor("Unexpected argument 'frobnicate'")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func ctrlCWhileWaitingForAStoreSaysWhatWasCreated() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/stores create slow --file file-abc")
        try await tmux.waitFor(timeout: .seconds(10), "two polls") { _ in
            server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count >= 2
        }
        try tmux.press("C-c")
        try await tmux.waitFor("created vs_slow with 1 file; the server goes on processing them")
        try await tmux.waitFor("interrupted")
        try tmux.type("still here")
        try await tmux.waitFor("echo: still here")
        // The interrupted wait polls no more.
        let polls = server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count
        try await Task.sleep(for: .seconds(2))
        #expect(server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count == polls)
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func ctrlCTwiceAtAnEmptyPromptLeaves() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.press("C-c")
        try await tmux.waitFor("(Ctrl-C again to quit)")
        try tmux.press("C-c")
        let screen = try await tmux.waitFor("\n$ ")
        // The console left: the shell's prompt is the last line, after the hint.
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(lines.last == "$")
        #expect(lines.contains { $0.contains("(Ctrl-C again to quit)") })
        #expect(server.requests.filter { $0.path == "/v1/responses" }.isEmpty)
        await server.stop()
    }
}
