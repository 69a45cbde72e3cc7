import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Against a real, independently written Responses server (llama-stack with a fake echo model, started by
/// scripts/test.sh through ../shared/peer/oai-peer.sh). Runs when the peer is found (`PeerServer`):
/// OPENRESPONSES_PEER_URL, or the usual address; reported as skipped otherwise.
@Suite("Against the peer server", .enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
struct PeerTests {
    static let model = PeerServer.model

    func withPeer<T>(_ body: (ResponsesClient) async throws -> T) async throws -> T {
        let baseURL = try #require(PeerServer.baseURL)
        return try await withClient(baseURL: baseURL, apiKey: "sk-test-1234", readTimeout: .seconds(60), body)
    }

    @Test func createRetrieveInputItemsDelete() async throws {
        try await withPeer { client in
            let created = try await client.create(CreateResponseRequest(model: Self.model, input: "hello peer"))
            #expect(created.status == .completed)
            #expect(created.outputText == "echo: hello peer")
            #expect(created.id.hasPrefix("resp"))

            let retrieved = try await client.retrieve(id: created.id)
            #expect(retrieved.id == created.id)
            #expect(retrieved.outputText == created.outputText)

            let items = try await client.allInputItems(responseID: created.id)
            let texts = items.compactMap { $0["content"]?[0]?["text"]?.stringValue }
            #expect(texts == ["hello peer"])

            let deletion = try await client.delete(id: created.id)
            #expect(deletion.deleted)
            await #expect {
                try await client.retrieve(id: created.id)
            } throws: { error in
                let error = error as? ResponsesAPIError
                return error?.status == 404 && error?.message.contains("not found") == true
            }
        }
    }

    @Test func streamedAnswerAndChaining() async throws {
        try await withPeer { client in
            var events: [ResponseStreamEvent] = []
            for try await event in client.stream(CreateResponseRequest(model: Self.model, input: "stream to me")) {
                events.append(event)
            }
            let final = try #require(events.last?.finalResponse)
            #expect(final.status == .completed)
            #expect(events.deltaText == "echo: stream to me")
            #expect(final.outputText == events.deltaText)
            #expect(events.allSatisfy { $0.kind != .unknown })
            var accumulator = ResponseAccumulator()
            for event in events.dropLast() { accumulator.apply(event) }
            #expect(accumulator.rebuilt.outputText == final.outputText)

            let second = try await client.create(
                CreateResponseRequest(
                    model: Self.model, input: "and again", previousResponseID: final.id))
            #expect(second.outputText == "echo[2]: and again")
            _ = try await client.delete(id: second.id)
            _ = try await client.delete(id: final.id)
        }
    }

    @Test func conversationsLifecycle() async throws {
        try await withPeer { client in
            let conversation = try await client.createConversation(metadata: ["topic": "tests"])
            #expect(conversation.id.hasPrefix("conv"))
            let fetched = try await client.conversation(id: conversation.id)
            #expect(fetched.id == conversation.id)
            let deletion = try await client.deleteConversation(id: conversation.id)
            #expect(deletion.deleted)
        }
    }
}
