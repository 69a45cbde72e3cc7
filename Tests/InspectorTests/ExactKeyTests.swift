import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// A value that is exactly the API key, nothing before or after it, is redacted like a longer text that
/// contains it: in a header, a body, an event, and in the text functions.
@Suite("A value that is exactly the key")
struct ExactKeyTests {
    let key = "sk-live-abcdefghijklmnop"
    var redactor: Redactor { Redactor(secrets: [key]) }

    @Test func theRedactorReplacesTheWholeValue() {
        #expect(redactor.redact(Array(key.utf8)) == Array(Redactor.placeholder.utf8))
        #expect(redactor.redact(key) == Redactor.placeholder)
        #expect(redactor.redact(headers: [("X-Echo", key)]).first?.1 == Redactor.placeholder)
        #expect(Array(key.utf8).withUnsafeBytes(redactor.occurs(in:)))
        // At the very start, at the very end, and twice with nothing between.
        #expect(redactor.redact(key + " tail") == Redactor.placeholder + " tail")
        #expect(redactor.redact("head " + key) == "head " + Redactor.placeholder)
        #expect(redactor.redact(key + key) == Redactor.placeholder + Redactor.placeholder)
        // One byte short of the key is not the key.
        let short = String(key.dropLast())
        #expect(redactor.redact(short) == short)
    }

    @Test func theStoreNeverHoldsIt() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let recording = await store.recorder.exchangeWillStart(
            ExchangeRequest(
                startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses",
                headers: [("X-Echo-Key", testKey), ("X-Plain", testKey)],
                body: Array(testKey.utf8), secrets: [testKey], context: ExchangeContext()))
        recording.didReceiveHead(
            ExchangeResponseHead(status: 200, headers: [("x-echo", testKey)], timeToFirstByte: .milliseconds(3)))
        recording.didReceiveEvents(
            RecordedEvents([
                RecordedEvent(
                    index: 0, offset: .milliseconds(4), type: "response.output_text.delta", sequenceNumber: 0,
                    data: Array(testKey.utf8)),
                RecordedEvent(
                    index: 1, offset: .milliseconds(5), type: "response.output_text.delta", sequenceNumber: 1,
                    data: Array("plain".utf8)),
            ]))
        recording.didReceiveBody(Array(testKey.utf8))
        try await Deadline.run("the recording's end") {
            await recording.didFinish(ExchangeOutcome(state: .completed, duration: .milliseconds(6)))
        }

        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        let placeholder = Array(Redactor.placeholder.utf8)
        #expect(detail.requestBody == placeholder)
        #expect(detail.requestHeaders.map(\.1) == [Redactor.placeholder, Redactor.placeholder])
        #expect(detail.responseHeaders.map(\.1) == [Redactor.placeholder])
        #expect(detail.events.map(\.data) == [placeholder, Array("plain".utf8)])
        #expect(detail.responseBody == placeholder)
        #expect(try store.allBytes().range(of: Data(testKey.utf8)) == nil)
    }
}
