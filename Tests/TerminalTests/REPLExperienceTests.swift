import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Answers like a model with tools: "cite" gets a reasoning summary, a web search and a cited answer;
/// "time" (with a local_time tool offered) gets a function call; a function_call_output gets
/// "tool said: ..."; anything else is echoed (the text of a message with attachments too).
func scriptedRoute(counter: Counter) -> LoopbackServer.Route {
    { request in
        switch (request.method, request.path) {
        case ("POST", "/v1/conversations"):
            return .json(#"{"id":"conv_1","object":"conversation","created_at":1795270000,"metadata":{}}"#)
        case ("GET", "/v1/vector_stores"):
            return .json(
                #"{"object":"list","data":[{"id":"vs_alpha","object":"vector_store","name":"alpha","status":"completed","file_counts":{"completed":2,"total":2}}],"has_more":false}"#
            )
        case ("POST", "/v1/files"):
            let purpose =
                String(decoding: request.body, as: UTF8.self).contains("\r\n\r\nvision\r\n") ? "vision" : "user_data"
            return .json(
                #"{"id":"file-up\#(counter.next())","object":"file","bytes":4,"filename":"x","purpose":"\#(purpose)"}"#)
        case ("POST", "/v1/vector_stores"):
            return .json(
                #"{"id":"vs_slow","object":"vector_store","name":"slow","status":"in_progress","file_counts":{"in_progress":1,"completed":0,"failed":0,"cancelled":0,"total":1}}"#
            )
        case ("GET", "/v1/vector_stores/vs_slow"):
            return .json(
                #"{"id":"vs_slow","object":"vector_store","name":"slow","status":"in_progress","file_counts":{"in_progress":1,"completed":0,"failed":0,"cancelled":0,"total":1}}"#
            )
        case ("GET", "/v1/files"):
            return .json(
                #"{"object":"list","data":[{"id":"file-9","object":"file","bytes":2048,"filename":"notes.pdf","purpose":"user_data"}],"has_more":false}"#
            )
        case ("POST", let path) where path.hasSuffix("/cancel"):
            return .json(#"{"id":"resp_bg","object":"response","status":"cancelled","background":true,"output":[]}"#)
        default:
            break
        }
        let body = (try? JSONValue.parse(request.body)) ?? .null
        let id = "resp_\(counter.next())"
        let previous = body["previous_response_id"]?.stringValue
        let items = body["input"]?.arrayValue ?? []
        if let approval = items.last(where: { $0["type"] == "mcp_approval_response" }) {
            return .sse(
                Fixtures.textStream(
                    id: id, text: "approved: \(approval["approve"]?.boolValue ?? false)", previousResponseID: previous))
        }
        if let output = items.last(where: { $0["type"] == "function_call_output" }) {
            return .sse(
                Fixtures.textStream(
                    id: id, text: "tool said: " + (output["output"]?.stringValue ?? ""), previousResponseID: previous))
        }
        let text: String
        if let string = body["input"]?.stringValue {
            text = string
        } else {
            let lastUser = items.last { $0["role"] == "user" }
            text =
                lastUser?["content"]?.stringValue
                ?? (lastUser?["content"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }.joined(
                    separator: " ")
        }
        let offersTime = (body["tools"]?.arrayValue ?? []).contains { $0["name"] == "local_time" }
        if text.contains("cite") { return .sseFixture("stream-reasoning-citation.sse") }
        if text.contains("mcp") {
            let request =
                #"{"id":"mcpr_1","type":"mcp_approval_request","server_label":"deepwiki","name":"ask_question","arguments":"{\"q\":\"x\"}"}"#
            return .sse([
                "event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":\(request)}\n\n",
                "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"\(id)\",\"object\":\"response\",\"status\":\"completed\",\"output\":[\(request)]}}\n\n",
            ])
        }
        if text.contains("background") {
            var frames = Fixtures.textStream(id: "resp_bg", text: (1...40).map { "w\($0)" }.joined(separator: " "))
            for index in 0..<2 {
                frames[index] = frames[index].replacingOccurrences(
                    of: #""status":"in_progress""#, with: #""status":"in_progress","background":true"#)
            }
            return .sse(frames, pause: .milliseconds(250))
        }
        if text.contains("time"), offersTime { return .sseFixture("stream-function-call.sse") }
        return .sse(
            Fixtures.textStream(
                id: id, text: "echo: " + text.replacingOccurrences(of: "\n", with: " / "), previousResponseID: previous)
        )
    }
}

/// The REPL as a user lives in it, in a real terminal (tmux) against the loopback server.
@Suite("REPL experience", .serialized)
struct REPLExperienceTests {
    @Test func reasoningSummaryToolLineAndCitationFootnoteInColour() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("please cite your sources")
        let screen = try await tmux.waitFor("[usage] input 1,200 (cached 1,000)")
        #expect(screen.contains("Checking the sources before answering."))
        #expect(screen.contains("[web search] \"eiffel tower height\" — 2 sources: example.org, facts.example.com"))
        #expect(screen.contains("The Eiffel Tower is 330 metres tall.[1]"))
        #expect(screen.contains("[1] Eiffel facts — https://example.org/eiffel"))
        let coloured = try tmux.screen(escapes: true)
        #expect(coloured.contains("\u{1B}["), "colours are on in a terminal without NO_COLOR")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func noColorMeansNoEscapeCodes() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        var harness = ConsoleHarness(server: server)
        harness.extraVariables = ["NO_COLOR": "1"]
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("please cite your sources")
        try await tmux.waitFor("[usage] input")
        let coloured = try tmux.screen(escapes: true)
        #expect(!coloured.contains("\u{1B}["), "\(coloured)")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func functionToolRoundTripEndsInAFinalAnswer() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole(arguments: ["--preset", "function-tools"])
        defer { tmux.kill() }
        try tmux.type("what time is it in London?")
        let screen = try await tmux.waitFor("tool said: {\"timezone\":\"UTC\"")
        #expect(screen.contains("[function] local_time({\"timezone\":\"UTC\"})"))
        #expect(server.requests.count == 2)
        let second = try JSONValue.parse(server.requests[1].body)
        #expect(second["previous_response_id"] == "resp_f1")
        let output = try #require(second["input"]?[0])
        #expect(output["type"] == "function_call_output")
        #expect(output["call_id"] == "call_1")
        #expect(output["output"]?.stringValue?.contains("\"local_time\"") == true)
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func anUntrustedHandlerAsksFirstAndADeclineGoesBackAsAnError() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try """
        version: 1
        tools:
          - type: function
            name: local_time
            handler: {command: "echo ran-it", trusted: false}
        """.write(to: presets.appendingPathComponent("ask-first.yaml"), atomically: true, encoding: .utf8)
        let tmux = try await harness.startConsole(arguments: ["--preset", "ask-first"])
        defer { tmux.kill() }
        try tmux.type("time please")
        try await tmux.waitFor("Run local_time({\"timezone\":\"UTC\"})? [y/N] ")
        try tmux.type("n")
        try await tmux.waitFor("tool said: {\"error\":\"the user declined to run local_time\"}")
        try tmux.type("time again")
        try await tmux.waitFor("Run local_time({\"timezone\":\"UTC\"})? [y/N] ", count: 2)
        try tmux.type("y")
        try await tmux.waitFor("tool said: ran-it")
        // What went back to the server: the decline as an error, then the handler's output.
        let outputs = try server.requests.filter { $0.path == "/v1/responses" }.compactMap { request in
            try JSONValue.parse(request.body)["input"]?.arrayValue?.first { $0["type"] == "function_call_output" }
        }
        try #require(outputs.count == 2)
        #expect(outputs[0]["output"]?.stringValue?.contains("the user declined to run local_time") == true)
        #expect(outputs[1]["output"]?.stringValue?.contains("ran-it") == true)
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func anAttachedFileArrivesAsInputFile() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let pdf = harness.home.appendingPathComponent("notes.pdf")
        try Data("%PDF-1.4 pretend".utf8).write(to: pdf)
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("/attach \(harness.home.path)/missing.pdf")
        try await tmux.waitFor("missing.pdf: no such file; nothing attached")
        try tmux.type("/attach \(pdf.path)")
        try await tmux.waitFor("Attached notes.pdf (application/pdf) to the next message.")
        try tmux.type("summarize this")
        try await tmux.waitFor("echo: summarize this")
        let body = try JSONValue.parse(try #require(server.requests.last).body)
        let content = try #require(body["input"]?[0]?["content"])
        #expect(content[0] == ["type": "input_text", "text": "summarize this"])
        #expect(content[1]?["type"] == "input_file")
        #expect(content[1]?["filename"] == "notes.pdf")
        #expect(
            content[1]?["file_data"]
                == .string("data:application/pdf;base64," + Data("%PDF-1.4 pretend".utf8).base64EncodedString()))
        try tmux.type("no attachment now")
        try await tmux.waitFor("echo: no attachment now")
        #expect(try JSONValue.parse(try #require(server.requests.last).body)["input"] == "no attachment now")

        // Above the inline limit, files are uploaded first and sent by id (images with purpose vision).
        let png = harness.home.appendingPathComponent("chart.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: png)
        try tmux.type("/set console.inline_attachments_kb 0")
        try tmux.type("/attach \(png.path) \(pdf.path)")
        try await tmux.waitFor("Attached chart.png (image) to the next message.")
        try tmux.type("look at these")
        try await tmux.waitFor("echo: look at these")
        let uploads = server.requests.filter { $0.method == "POST" && $0.path == "/v1/files" }
        try #require(uploads.count == 2)
        #expect(String(decoding: uploads[0].body, as: UTF8.self).contains("\r\n\r\nvision\r\n"))
        let sent = try JSONValue.parse(try #require(server.requests.last).body)["input"]?[0]?["content"]
        #expect(sent?[1]?["type"] == "input_image")
        #expect(sent?[1]?["file_id"]?.stringValue?.hasPrefix("file-up") == true)
        #expect(sent?[2]?["type"] == "input_file")
        #expect(sent?[2]?["file_id"]?.stringValue?.hasPrefix("file-up") == true)
        #expect(sent?[2]?["file_data"] == nil)
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func multiLineInputStatelessModeRetryAndSecretsKeptOutOfHistory() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("first line \\")
        try await tmux.waitFor("… ")
        try tmux.type("second line")
        try await tmux.waitFor("echo: first line  / second line")
        try tmux.type("\"\"\"")
        try tmux.type("block one")
        try tmux.type("block two")
        try tmux.type("\"\"\"")
        try await tmux.waitFor("echo: block one / block two")

        try tmux.type("/mode stateless")
        try await tmux.waitFor("Stateless mode")
        try tmux.type("alpha")
        try await tmux.waitFor("echo: alpha")
        try tmux.type("beta")
        try await tmux.waitFor("echo: beta")
        let stateless = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(stateless["store"] == false)
        #expect(stateless["previous_response_id"] == nil)
        let history = stateless["input"]?.arrayValue ?? []
        try #require(history.count == 3)
        #expect(history.first == ["role": "user", "content": "alpha"])
        #expect(history[1]["type"] == "message")
        #expect(history.last == ["role": "user", "content": "beta"])
        #expect(stateless["include"]?.arrayValue?.contains("reasoning.encrypted_content") == true)

        try tmux.type("/retry")
        try await tmux.waitFor("echo: beta", count: 2)
        let retried = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(retried["input"] == stateless["input"])

        try tmux.type("my key is sk-abcdefghijklmnopqrstuvwxyz123456")
        try await tmux.waitFor("echo: my key is")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        let file = try String(contentsOf: harness.home.appendingPathComponent("history"), encoding: .utf8)
        #expect(file.contains("alpha"))
        #expect(!file.contains("sk-abcdefghijklmnopqrstuvwxyz123456"))
        await server.stop()
    }

    @Test func mcpApprovalIsAskedAndAnsweredInTheNextRequest() async throws {
        let server = try await LoopbackServer.start(route: scriptedRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        try tmux.type("use mcp please")
        try await tmux.waitFor("Allow deepwiki to run ask_question({\"q\":\"x\"})? [y/N] ")
        try tmux.type("y")
        try await tmux.waitFor("approved: true")
        let body = try JSONValue.parse(try #require(server.requests.last).body)
        #expect(body["input"] == [["type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": true]])
        #expect(body["previous_response_id"] == "resp_1")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

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
