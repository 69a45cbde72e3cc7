import Foundation
import ResponsesAPI
import Testing

@testable import Inspector

/// Which finished exchanges change the ledger, read from the request and the answer alone.
@Suite("Ledger changes")
struct LedgerChangeTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    func done(_ id: String? = nil, state: ExchangeOutcome.State = .completed) -> ExchangeOutcome {
        ExchangeOutcome(state: state, responseID: id, duration: .milliseconds(5))
    }
    func change(
        _ method: String, _ url: String, request: String = "{}", answer: String? = nil, outcome: ExchangeOutcome? = nil
    ) -> LedgerChange? {
        LedgerChange.of(
            method: method, url: url,
            storeRequested: (try? JSONValue.parse(request))?["store"]?.boolValue != false,
            responseBody: answer.map { Array($0.utf8) }, outcome: outcome ?? done(), now: now)
    }

    @Test func storedResponsesAndCreatedObjectsAreRecorded() {
        #expect(
            change("POST", "https://api.openai.com/v1/responses", request: #"{"model":"m"}"#, outcome: done("resp_1"))
                == .created(
                    id: "resp_1", kind: .response, label: nil, expiresAt: now.addingTimeInterval(30 * 86400),
                    baseURL: "https://api.openai.com/v1"))
        #expect(
            change(
                "POST", "https://gw.example/openai/v1/files",
                answer: #"{"id":"file-1","object":"file","filename":"a.pdf","expires_at":1795100000}"#)
                == .created(
                    id: "file-1", kind: .file, label: "a.pdf", expiresAt: Date(timeIntervalSince1970: 1_795_100_000),
                    baseURL: "https://gw.example/openai/v1"))
        #expect(
            change("POST", "http://127.0.0.1:8321/v1/vector_stores?x=1", answer: #"{"id":"vs_1","name":"papers"}"#)
                == .created(
                    id: "vs_1", kind: .vectorStore, label: "papers", expiresAt: nil, baseURL: "http://127.0.0.1:8321/v1"
                ))
        #expect(change("DELETE", "https://api.openai.com/v1/files/file-1") == .deleted(id: "file-1"))
    }

    /// Issue 49: a response the server created is on it whatever happened to the stream after (Ctrl-C
    /// detaching a background job, a stream cancelled or failed): it is in the ledger, so `jobs` lists it and
    /// `ledger gc` finds it.
    @Test(arguments: [ExchangeOutcome.State.cancelled, .failed])
    func aResponseWhoseStreamEndedEarlyIsRecorded(state: ExchangeOutcome.State) {
        #expect(
            change("POST", "https://api.openai.com/v1/responses", outcome: done("resp_9", state: state))
                == .created(
                    id: "resp_9", kind: .response, label: nil, expiresAt: now.addingTimeInterval(30 * 86400),
                    baseURL: "https://api.openai.com/v1"))
        #expect(
            change(
                "POST", "https://api.openai.com/v1/responses", request: #"{"store":false}"#,
                outcome: done("resp_10", state: state)) == nil, "store: false")
    }

    @Test func whatLeavesNothingIsNotRecorded() {
        #expect(
            change("POST", "https://api.openai.com/v1/responses", request: #"{"store":false}"#, outcome: done("resp_2"))
                == nil, "store: false")
        #expect(
            change("POST", "https://api.openai.com/v1/responses", outcome: done(nil, state: .failed)) == nil,
            "failed before the server created a response")
        #expect(
            change("POST", "https://api.openai.com/v1/files", outcome: done(nil, state: .cancelled)) == nil,
            "a cancelled upload")
        #expect(
            change("POST", "https://api.openai.com/v1/responses/input_tokens", answer: #"{"input_tokens":3}"#) == nil)
        #expect(change("POST", "https://api.openai.com/v1/responses/compact", answer: #"{"id":"resp_c"}"#) == nil)
        #expect(
            change("POST", "https://api.openai.com/v1/vector_stores/vs_1/search", answer: #"{"object":"page"}"#) == nil)
        #expect(change("POST", "https://api.openai.com/v1/embeddings", answer: #"{"object":"list"}"#) == nil)
        #expect(change("GET", "https://api.openai.com/v1/files/file-1", answer: #"{"id":"file-1"}"#) == nil)
        #expect(change("POST", "https://api.openai.com/v1/files", answer: #"{"error":{}}"#) == nil, "no id")
    }
}
