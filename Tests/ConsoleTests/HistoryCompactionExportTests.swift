import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

@testable import Console

/// After `/compact`, the next turn starts with the compacted items: the export shows them as a compaction,
/// not as the user's messages again.
@Suite("history export after a compaction")
struct HistoryCompactionExportTests {
    @Test func compactedItemsAreNotNewTurns() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-compact-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try InspectorStore.open(at: directory.appendingPathComponent("inspector.sqlite").path)
        let recorder = ExchangeRecorder(store: store)
        let compacted =
            #"[{"type":"message","role":"user","content":[{"type":"input_text","text":"question one"}]},{"type":"compaction","id":"cmp_1","encrypted_content":"xyz"}]"#
        let server = try await LoopbackServer.start { request in
            if request.path.hasSuffix("/compact") {
                return .json(
                    #"{"id":"resp_c","object":"response.compaction","output":\#(compacted),"usage":{"input_tokens":9,"output_tokens":3}}"#
                )
            }
            return .json(
                #"{"id":"resp_\#(request.body.count)","object":"response","status":"completed","model":"m","output":[{"id":"msg_1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"An answer.","annotations":[]}]}]}"#
            )
        }
        let configuration = Configuration(baseURL: server.baseURL, apiKey: "sk-test-0000")
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: recorder)
        let context = ExchangeContext(session: "s-compact")
        _ = try await client.create(CreateResponseRequest(model: "m", input: "question one"), context: context)
        _ = try await client.compact(["model": "m", "input": "question one"], context: context)
        var after = CreateResponseRequest(model: "m", input: "x")
        after.body["input"] = try JSONValue.parse(
            String(compacted.dropLast()) + #",{"type":"message","role":"user","content":"question three"}]"#)
        _ = try await client.create(after, context: context)
        _ = await recorder.waitUntilIdle()
        await transport.shutdown()
        await server.stop()

        let export = ConversationExport(
            session: "s-compact", exchanges: try await store.exchanges(inSession: "s-compact"))
        let markdown = export.markdown
        #expect(markdown.components(separatedBy: "## You").count - 1 == 2, "\(markdown)")
        #expect(
            markdown.contains("*(the conversation so far was compacted into 2 items)*\n\n## You\n\nquestion three"),
            "\(markdown)")
    }
}
