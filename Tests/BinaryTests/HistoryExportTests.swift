import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// What an exported conversation keeps: the partial answer of a stream that broke off (the built binary).
/// A tool's whole output is in ConsoleTests.
@Suite("history export")
struct HistoryExportTests {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-histexp-\(UUID().uuidString)", isDirectory: true)

    @Test func aStreamThatBrokeOffKeepsItsPartialAnswer() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        // The answer's deltas, then the connection ends before the message or the response is done.
        let frames = Fixtures.textStream(id: "resp_cut", text: "The first half of an answer that never ends")
        let cut = frames.prefix { !$0.contains("response.output_text.done") }
        let server = try await LoopbackServer.start { _ in .sse(Array(cut)) }
        defer { Task { await server.stop() } }
        let environment = ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-test-0000"]
        let asked = try await Subprocess.openresponses(
            ["ask", "--model", "m", "start an answer"], home: home, environment: environment)
        #expect(asked.status != 0, "the stream was cut: \(asked.stdout)")
        let list = try await Subprocess.openresponses(
            ["history", "list", "--json"], home: home, environment: environment)
        let session = try #require(
            try JSONValue.parse(Array(list.stdout.utf8)).arrayValue?.first?["id"]?.stringValue, "\(list.stdout)")

        let markdown = try await Subprocess.openresponses(
            ["history", "export", session], home: home, environment: environment)
        #expect(markdown.status == 0, "\(markdown.stderr)")
        #expect(
            markdown.stdout.contains("## Assistant\n\nThe first half of an answer that never ends\n"),
            "\(markdown.stdout)")
        let json = try await Subprocess.openresponses(
            ["history", "export", session, "--format", "json"], home: home, environment: environment)
        #expect(json.stdout.contains("The first half of an answer that never ends"), "\(json.stdout)")
    }
}
