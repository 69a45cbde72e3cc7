import Foundation
import ResponsesAPI
import TestSupport
import Testing

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
}
