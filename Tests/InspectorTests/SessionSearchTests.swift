import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// `history search`: a conversation matches when every word is in one of its turns, not necessarily the same.
@Suite("Searching conversations")
struct SessionSearchTests {
    @Test func everyWordInAnyTurnOfTheConversation() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { request in
            let input = (request.jsonBody?["input"] as? String) ?? ""
            return .sse(Fixtures.textStream(id: "resp_\(input.count)", text: "About \(input)"))
        }
        try await recording(store, server: server) { client in
            for (input, session) in [
                ("apples orchard", "s-fruit"), ("bananas ripening", "s-fruit"), ("apples only", "s-other"),
            ] {
                for try await _ in client.stream(
                    CreateResponseRequest(model: "m", input: .string(input)), context: ExchangeContext(session: session)
                ) {}
            }
        }
        await server.stop()
        #expect(try await store.store.sessions(search: "apples bananas", limit: 10).map(\.id) == ["s-fruit"])
        #expect(Set(try await store.store.sessions(search: "apples", limit: 10).map(\.id)) == ["s-fruit", "s-other"])
        #expect(try await store.store.sessions(search: "apples bananas cherries", limit: 10).isEmpty)
        #expect(try await store.store.sessions(search: "apples", limit: 1).count == 1)
        #expect(try await store.store.sessions(search: "  ", limit: 10).isEmpty)
    }
}
