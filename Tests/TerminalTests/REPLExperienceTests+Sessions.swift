import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The REPL's longer sessions: the Conversations API, the editor, history and resume; Ctrl-C at each moment;
/// stores and file search.
extension REPLExperienceTests {
    @Test func conversationsAPIEditorHistoryAndResume() async throws {
        let prepare: (inout ConsoleHarness) throws -> Void = { harness in
            try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
            let editor = harness.home.appendingPathComponent("fake-editor.sh")
            try "#!/bin/sh\nprintf 'written in the editor\\n' > \"$1\"\n".write(
                to: editor, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
            harness.extraVariables = ["EDITOR": editor.path]
        }
        try await Self.withConsole(prepare: prepare) { tmux, server, _ in
            try await tmux.send("/conversation new", until: "Turns now go to conversation conv_1.")
            try await tmux.send("in a conversation", until: "echo: in a conversation")
            let body = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(body["conversation"] == "conv_1")
            #expect(body["previous_response_id"] == nil)

            try await tmux.send("/edit", until: "echo: written in the editor")

            try tmux.type("/new")
            let history = try await tmux.send("/history", until: "/resume ID continues one")
            let line = try #require(
                history.split(separator: "\n").first { $0.hasPrefix("  ") && $0.contains("in a conversation") })
            let id = try #require(line.split(separator: " ").first.map(String.init))
            try await tmux.send("/resume \(id)", until: "the next turn continues from resp_")
            try await tmux.send("after resume", until: "echo: after resume")
            let resumed = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(resumed["previous_response_id"]?.stringValue?.hasPrefix("resp_") == true)
            try await tmux.quit()
        }
    }

    @Test func ctrlCDetachesFromABackgroundResponseAndCancelCancelsIt() async throws {
        try await Self.withConsole { tmux, server, _ in
            try tmux.type("/bg on")
            try await tmux.send("background work", until: "w3 ")
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
            try await tmux.send("/cancel", until: "usage: /cancel [RESPONSE_ID]")
            // An id (not the job just detached from) is cancelled on the provider the ledger names for it.
            try await tmux.send("/cancel resp_bg", until: "Cancelled resp_bg (status: ")
            try await tmux.send("/bg", until: "usage: /bg on|off (now on)")
            try await tmux.quit()
        }
    }

    @Test func storesUseTurnsFileSearchOnAndOffAndFilesCommandsWork() async throws {
        try await Self.withConsole { tmux, server, _ in
            try await tmux.complete("/stores use vs_a", to: "> /stores use vs_alpha ")
            try tmux.press("C-u")
            try await tmux.send("/stores use vs_alpha,vs_beta", until: "file_search now searches vs_alpha, vs_beta.")
            try await tmux.send("/stores", until: "file_search uses: vs_alpha, vs_beta")
            try await tmux.send("search my files", until: "echo: search my files")
            let body = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(body["tools"] == [["type": "file_search", "vector_store_ids": ["vs_alpha", "vs_beta"]]])
            try await tmux.send("/stores use none", until: "file_search is off")
            try await tmux.send("plain again", until: "echo: plain again")
            #expect(try JSONValue.parse(try #require(server.requests.last).body)["tools"] == nil)
            try await tmux.send(steps: [
                ("/files list", "file-9  notes.pdf  2.0 KB  user_data"),
                ("/stores list", "vs_alpha  alpha  2/2 files  completed"),
                ("/files frobnicate", "Unexpected argument 'frobnicate'"),
            ])
            try await tmux.quit()
        }
    }

    @Test func ctrlCWhileWaitingForAStoreSaysWhatWasCreated() async throws {
        try await Self.withConsole { tmux, server, _ in
            try tmux.type("/stores create slow --file file-abc")
            try await tmux.waitFor(timeout: .seconds(10), "two polls") { _ in
                server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count >= 2
            }
            try tmux.press("C-c")
            try await tmux.waitFor("created vs_slow with 1 file; the server goes on processing them")
            try await tmux.waitFor("interrupted")
            try await tmux.send("still here", until: "echo: still here")
            // The interrupted wait polls no more.
            let polls = server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count
            try await Task.sleep(for: .seconds(2))
            #expect(server.requests.filter { $0.path == "/v1/vector_stores/vs_slow" }.count == polls)
            try await tmux.quit()
        }
    }

    @Test func ctrlCTwiceAtAnEmptyPromptLeaves() async throws {
        try await Self.withConsole { tmux, server, _ in
            try tmux.press("C-c")
            try await tmux.waitFor("(Ctrl-C again to quit)")
            try tmux.press("C-c")
            let screen = try await tmux.waitFor("\n$ ")
            // The console left: the shell's prompt is the last line, after the hint.
            let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            #expect(lines.last == "$")
            #expect(lines.contains { $0.contains("(Ctrl-C again to quit)") })
            #expect(server.requests.filter { $0.path == "/v1/responses" }.isEmpty)
        }
    }
}
