import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// The push floor (`InspectorStore.pushFloor`): a proxy that pushes every second looks at the exchanges since
/// the first one that may still have to go, not at its whole history; no exchange that has to go is ever below it,
/// one still being recorded holds it back until it has ended and gone.
@Suite("the push floor")
struct PushFloorTests {
    let destination = "postgres://team@db.example:5432/inspector"

    @Test func theFloorIsTheFirstExchangeThatMayStillHaveToGo() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let gate = Gate()
        let server = try await LoopbackServer.start { request in
            String(decoding: request.body, as: UTF8.self).contains("held")
                ? Reply.sse(Fixtures.textStream(id: "resp_held", text: "late")).held(until: gate)
                : Reply.sse(Fixtures.textStream(id: "resp_quick", text: "quick"))
        }
        defer { Task { await server.stop() } }
        func ask(_ client: ResponsesClient, _ input: String) async throws {
            for try await _ in client.stream(CreateResponseRequest(model: "m", input: .string(input))) {}
        }
        try await recording(store, server: server) { client in
            try await ask(client, "one")
            try await ask(client, "two")
        }
        #expect(try await store.store.pushFloor(destination: destination) == 1)
        try await store.store.notePushed([1, 2], destination: destination)
        #expect(try await store.store.pushFloor(destination: destination, from: 1) == 3, "the next id")

        try await recording(store, server: server) { client in
            let held = Task { try await ask(client, "held") }
            try await Deadline.poll("the held exchange's row") {
                try await store.store.recentExchanges().contains { $0.state == "in_progress" }
            }
            try await ask(client, "four")
            try await Deadline.poll("exchange 4 ended") {
                try await store.store.recentExchanges().contains { $0.id == 4 && $0.state == "completed" }
            }
            #expect(try await store.store.pushFloor(destination: destination, from: 3) == 3, "3 is in progress")
            let batch = try await store.store.exchangesToPush(destination: destination, from: 3)
            #expect(batch.map(\.detail.summary.id) == [4], "an exchange in progress waits for its end")
            try await store.store.notePushed([4], destination: destination)
            #expect(try await store.store.pushFloor(destination: destination, from: 3) == 3)
            gate.open()
            try await held.value
        }
        #expect(try await store.store.pushFloor(destination: destination, from: 3) == 3, "ended, not pushed")
        #expect(try await store.store.pushBacklog(destination: destination, from: 3).waiting == 1)
        try await store.store.notePushed([3], destination: destination)
        #expect(try await store.store.pushFloor(destination: destination, from: 3) == 5)
        #expect(try await store.store.pushBacklog(destination: destination, from: 5).waiting == 0)
        #expect(try await store.store.exchangesToPush(destination: destination, from: 5).isEmpty)
    }
}
