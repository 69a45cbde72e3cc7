import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `inspect dump` leaves the streams' random obfuscation padding out (two dumps of one request compare),
/// and `--keep-obfuscation` gives the events exactly as they arrived. The built binary against a loopback
/// server streaming a recorded fixture with padded deltas; once with each engine (`InspectorEngine`): with a team
/// store the exchange is pushed when `ask` ends and the dumps read it from PostgreSQL.
@Suite("inspect dump without the obfuscation padding")
struct InspectDumpNoiseTests {
    @Test(arguments: InspectorEngine.all) func dumpsLeaveThePaddingOutUnlessAskedToKeepIt(engine: InspectorEngine)
        async throws
    {
        let fixture = Fixtures.text("stream-every-event.sse")
        let server = try await LoopbackServer.start { _ in
            Reply(status: 200, headers: [("Content-Type", "text/event-stream")], parts: [.bytes(Array(fixture.utf8))])
        }
        defer { Task { await server.stop() } }
        var configured = ConsoleHarness(server: server)
        configured.extraVariables = try engine.variables()
        let harness = configured
        defer { harness.remove() }
        let binary = Subprocess.openresponsesBinary
        let ask = try await Subprocess.run(binary, ["ask", "--model", "m", "cats"], environment: harness.variables)
        try #require(ask.status == 0, "\(ask.stderr)")
        let sent = fixture.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        try #require(sent.contains { $0.contains(#""obfuscation""#) })

        // The exchange's id in the store read: a team store's ids come from a sequence, which a push retried under
        // load advances (so not always 1).
        let listed = try await Subprocess.run(binary, ["inspect", "list", "--json"], environment: harness.variables)
        let id = try #require(JSONValue.parse(Array(listed.stdout.utf8)).arrayValue?.first?["id"]?.intValue)
        for format in ["sse", "json", "har"] {
            let dump = try await Subprocess.run(
                binary, ["inspect", "dump", "\(id)", "--format", format], environment: harness.variables)
            #expect(dump.status == 0, "\(dump.stderr)")
            #expect(!dump.stdout.contains("obfuscation"), "\(format) dump holds the padding")
        }
        let sse = try await Subprocess.run(
            binary, ["inspect", "dump", "\(id)", "--format", "sse"], environment: harness.variables)
        let stripped = sse.stdout.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map {
            String($0.dropFirst(6))
        }
        #expect(
            stripped == sent.map { String(decoding: StreamNoise.withoutObfuscation(Array($0.utf8)), as: UTF8.self) })
        #expect(
            stripped.contains(
                #"{"type":"response.output_text.delta","sequence_number":14,"item_id":"msg_1","output_index":1,"content_index":0,"delta":"Cats ","logprobs":[]}"#
            ))

        let exact = try await Subprocess.run(
            binary, ["inspect", "dump", "\(id)", "--format", "sse", "--keep-obfuscation"],
            environment: harness.variables)
        #expect(
            exact.stdout.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
                == sent)
    }
}
