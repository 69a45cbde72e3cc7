import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The REPL as a user lives in it, in a real terminal (tmux) against the loopback server.
@Suite("REPL experience", .serialized)
struct REPLExperienceTests {
    /// The console in tmux on the scripted server (`scriptedRoute`); see `ConsoleHarness.withConsole`.
    static func withConsole(
        arguments: [String] = [], prepare: (inout ConsoleHarness) throws -> Void = { _ in },
        _ body: (TmuxSession, LoopbackServer, ConsoleHarness) async throws -> Void
    ) async throws {
        try await ConsoleHarness.withConsole(
            route: scriptedRoute(counter: Counter()), arguments: arguments, prepare: prepare, body)
    }

    @Test func reasoningSummaryToolLineAndCitationFootnoteInColour() async throws {
        try await Self.withConsole { tmux, _, _ in
            let screen = try await tmux.send("please cite your sources", until: "[usage] input 1,200 (cached 1,000)")
            #expect(screen.contains("Checking the sources before answering."))
            #expect(screen.contains("[web search] \"eiffel tower height\" — 2 sources: example.org, facts.example.com"))
            #expect(screen.contains("The Eiffel Tower is 330 metres tall.[1]"))
            #expect(screen.contains("[1] Eiffel facts — https://example.org/eiffel"))
            let coloured = try tmux.screen(escapes: true)
            #expect(coloured.contains("\u{1B}["), "colours are on in a terminal without NO_COLOR")
            try await tmux.quit()
        }
    }

    @Test func noColorMeansNoEscapeCodes() async throws {
        let prepare: (inout ConsoleHarness) -> Void = { $0.extraVariables = ["NO_COLOR": "1"] }
        try await Self.withConsole(prepare: prepare) { tmux, _, _ in
            try await tmux.send("please cite your sources", until: "[usage] input")
            let coloured = try tmux.screen(escapes: true)
            #expect(!coloured.contains("\u{1B}["), "\(coloured)")
            try await tmux.quit()
        }
    }

    @Test func functionToolRoundTripEndsInAFinalAnswer() async throws {
        try await Self.withConsole(arguments: ["--preset", "function-tools"]) { tmux, server, _ in
            let screen = try await tmux.send("what time is it in London?", until: "tool said: {\"timezone\":\"UTC\"")
            #expect(screen.contains("[function] local_time({\"timezone\":\"UTC\"})"))
            #expect(server.requests.count == 2)
            let second = try JSONValue.parse(server.requests[1].body)
            #expect(second["previous_response_id"] == "resp_f1")
            let output = try #require(second["input"]?[0])
            #expect(output["type"] == "function_call_output")
            #expect(output["call_id"] == "call_1")
            #expect(output["output"]?.stringValue?.contains("\"local_time\"") == true)
            try await tmux.quit()
        }
    }

    @Test func anUntrustedHandlerAsksFirstAndADeclineGoesBackAsAnError() async throws {
        let prepare: (inout ConsoleHarness) throws -> Void = {
            try $0.writeFunctionPreset("ask-first", handler: #"{command: "echo ran-it", trusted: false}"#)
        }
        try await Self.withConsole(arguments: ["--preset", "ask-first"], prepare: prepare) { tmux, server, _ in
            let question = "Run local_time({\"timezone\":\"UTC\"})? [y/N] "
            try await tmux.send("time please", until: question)
            try await tmux.send("n", until: "tool said: {\"error\":\"the user declined to run local_time\"}")
            try await tmux.send("time again", until: question, count: 2)
            try await tmux.send("y", until: "tool said: ran-it")
            // What went back to the server: the decline as an error, then the handler's output.
            let outputs = try server.requests.filter { $0.path == "/v1/responses" }.compactMap { request in
                try JSONValue.parse(request.body)["input"]?.arrayValue?.first { $0["type"] == "function_call_output" }
            }
            try #require(outputs.count == 2)
            #expect(outputs[0]["output"]?.stringValue?.contains("the user declined to run local_time") == true)
            #expect(outputs[1]["output"]?.stringValue?.contains("ran-it") == true)
            try await tmux.quit()
        }
    }

    @Test func anAttachedFileArrivesAsInputFile() async throws {
        let pdfData = Data("%PDF-1.4 pretend".utf8)
        let prepare: (inout ConsoleHarness) throws -> Void = { harness in
            try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
            try pdfData.write(to: harness.home.appendingPathComponent("notes.pdf"))
        }
        try await Self.withConsole(prepare: prepare) { tmux, server, harness in
            let pdf = harness.home.appendingPathComponent("notes.pdf")
            try await tmux.send(
                "/attach \(harness.home.path)/missing.pdf", until: "missing.pdf: no such file; nothing attached")
            try await tmux.send(
                "/attach \(pdf.path)", until: "Attached notes.pdf (application/pdf) to the next message.")
            try await tmux.send("summarize this", until: "echo: summarize this")
            let body = try JSONValue.parse(try #require(server.requests.last).body)
            let content = try #require(body["input"]?[0]?["content"])
            #expect(content[0] == ["type": "input_text", "text": "summarize this"])
            #expect(content[1]?["type"] == "input_file")
            #expect(content[1]?["filename"] == "notes.pdf")
            #expect(content[1]?["file_data"] == .string("data:application/pdf;base64," + pdfData.base64EncodedString()))
            try await tmux.send("no attachment now", until: "echo: no attachment now")
            #expect(try JSONValue.parse(try #require(server.requests.last).body)["input"] == "no attachment now")

            // Above the inline limit, files are uploaded first and sent by id (images with purpose vision).
            let png = harness.home.appendingPathComponent("chart.png")
            try Data([0x89, 0x50, 0x4E, 0x47]).write(to: png)
            try tmux.type("/set console.inline_attachments_kb 0")
            try await tmux.send(
                "/attach \(png.path) \(pdf.path)", until: "Attached chart.png (image) to the next message.")
            try await tmux.send("look at these", until: "echo: look at these")
            let uploads = server.requests.filter { $0.method == "POST" && $0.path == "/v1/files" }
            try #require(uploads.count == 2)
            #expect(String(decoding: uploads[0].body, as: UTF8.self).contains("\r\n\r\nvision\r\n"))
            let sent = try JSONValue.parse(try #require(server.requests.last).body)["input"]?[0]?["content"]
            #expect(sent?[1]?["type"] == "input_image")
            #expect(sent?[1]?["file_id"]?.stringValue?.hasPrefix("file-up") == true)
            #expect(sent?[2]?["type"] == "input_file")
            #expect(sent?[2]?["file_id"]?.stringValue?.hasPrefix("file-up") == true)
            #expect(sent?[2]?["file_data"] == nil)
            try await tmux.quit()
        }
    }

    @Test func multiLineInputStatelessModeRetryAndSecretsKeptOutOfHistory() async throws {
        try await Self.withConsole { tmux, server, harness in
            try await tmux.send("first line \\", until: "… ")
            try await tmux.send("second line", until: "echo: first line  / second line")
            for line in ["\"\"\"", "block one", "block two"] { try tmux.type(line) }
            try await tmux.send("\"\"\"", until: "echo: block one / block two")

            try await tmux.send("/mode stateless", until: "Stateless mode")
            try await tmux.send("alpha", until: "echo: alpha")
            try await tmux.send("beta", until: "echo: beta")
            let stateless = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(stateless["store"] == false)
            #expect(stateless["previous_response_id"] == nil)
            let history = stateless["input"]?.arrayValue ?? []
            try #require(history.count == 3)
            #expect(history.first == ["role": "user", "content": "alpha"])
            #expect(history[1]["type"] == "message")
            #expect(history.last == ["role": "user", "content": "beta"])
            #expect(stateless["include"]?.arrayValue?.contains("reasoning.encrypted_content") == true)

            try await tmux.send("/retry", until: "echo: beta", count: 2)
            let retried = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(retried["input"] == stateless["input"])

            try await tmux.send("my key is sk-abcdefghijklmnopqrstuvwxyz123456", until: "echo: my key is")
            try await tmux.quit()
            let file = try String(contentsOf: harness.home.appendingPathComponent("history"), encoding: .utf8)
            #expect(file.contains("alpha"))
            #expect(!file.contains("sk-abcdefghijklmnopqrstuvwxyz123456"))
        }
    }

    @Test func mcpApprovalIsAskedAndAnsweredInTheNextRequest() async throws {
        try await Self.withConsole { tmux, server, _ in
            try await tmux.send("use mcp please", until: "Allow deepwiki to run ask_question({\"q\":\"x\"})? [y/N] ")
            try await tmux.send("y", until: "approved: true")
            let body = try JSONValue.parse(try #require(server.requests.last).body)
            #expect(
                body["input"] == [["type": "mcp_approval_response", "approval_request_id": "mcpr_1", "approve": true]])
            #expect(body["previous_response_id"] == "resp_1")
            try await tmux.quit()
        }
    }
}
