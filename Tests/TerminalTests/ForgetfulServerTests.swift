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
        let route: LoopbackServer.Route = { request in
            let input = request.jsonBody?["input"] as? String ?? ""
            // An unrelated id where the chained one should be, as LiteLLM answers.
            return .sse(
                Fixtures.textStream(
                    id: "resp_\(counter.next())", text: "echo: " + input, previousResponseID: "chatcmpl-9"))
        }
        try await ConsoleHarness.withConsole(route: route) { tmux, server, _ in
            for turn in ["one", "two", "three"] {
                try await tmux.send("turn \(turn)", until: "echo: turn \(turn)")
            }
            let notice = "note: the server did not continue from resp_1 (its response names chatcmpl-9 instead)"
            let screen = try await tmux.waitFor(notice)
            #expect(screen.components(separatedBy: "the server did not continue").count - 1 == 1, "\(screen)")
            #expect(screen.contains("/mode stateless sends the history with every request"))
            let requests = server.requests
            try #require(requests.count == 3)
            #expect(requests[2].jsonBody?["previous_response_id"] as? String == "resp_2")
            try await tmux.quit()
        }
    }

    @Test func aServerThatEchoesTheChainIsNeverNoticed() async throws {
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter())) { tmux, _, _ in
            for turn in ["one", "two"] {
                try await tmux.send("turn \(turn)", until: "echo: turn \(turn)")
            }
            let screen = try await tmux.quit(typing: "/quit")
            #expect(!screen.contains("did not continue"))
        }
    }
}
