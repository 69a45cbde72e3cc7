import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// A server that answers a chained turn without the earlier ones (as LiteLLM's `/v1/responses` does: its
/// response does not echo the `previous_response_id` sent) is noticed once per session, in a terminal.
@Suite("A server that drops the conversation", .serialized)
struct ForgetfulServerTests {
    @Test func oneNoticeOnceWhenChainedTurnsAreNotEchoed() async throws {
        let counter = Counter()
        let server = try await LoopbackServer.start { request in
            let input = request.jsonBody?["input"] as? String ?? ""
            // An unrelated id where the chained one should be, as LiteLLM answers.
            return .sse(
                Fixtures.textStream(
                    id: "resp_\(counter.next())", text: "echo: " + input, previousResponseID: "chatcmpl-9"))
        }
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        for turn in ["one", "two", "three"] {
            try tmux.type("turn \(turn)")
            try await tmux.waitFor("echo: turn \(turn)")
        }
        let notice = "note: the server did not continue from resp_1 (its response names chatcmpl-9 instead)"
        let screen = try await tmux.waitFor(notice)
        #expect(screen.components(separatedBy: "the server did not continue").count - 1 == 1, "\(screen)")
        #expect(screen.contains("/mode stateless sends the history with every request"))
        let requests = server.requests
        try #require(requests.count == 3)
        #expect(requests[2].jsonBody?["previous_response_id"] as? String == "resp_2")
        try tmux.press("C-d")
        try await tmux.waitFor("\n$ ")
        await server.stop()
    }

    @Test func aServerThatEchoesTheChainIsNeverNoticed() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        let tmux = try await harness.startConsole()
        defer { tmux.kill() }
        for turn in ["one", "two"] {
            try tmux.type("turn \(turn)")
            try await tmux.waitFor("echo: turn \(turn)")
        }
        try tmux.type("/quit")
        let screen = try await tmux.waitFor("\n$ ")
        #expect(!screen.contains("did not continue"))
        await server.stop()
    }
}
