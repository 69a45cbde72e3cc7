import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// Secrets an exchange carries besides the bearer key: a key in the URL's query (`?key=`, `?api_key=`,
/// `?access_token=`) and the values of secret-named headers (`X-Goog-Api-Key`, `api-key`). Each is redacted
/// as the bearer key is: the header by its name, and the value's bytes wherever they occur (URL, headers,
/// bodies, events, texts); every other byte is stored exactly.
@Suite("Secrets in URL queries and secret-named headers")
struct NamedSecretTests {
    static let queryKey = "AIzaQUERY-key-0123456789abcdef"
    static let headerKey = "goog-HEADER-key-fedcba9876543210"

    @Test(
        "secret names",
        arguments: [
            "X-Goog-Api-Key", "api-key", "x-api-key", "key", "api_key", "apikey", "apiKey", "accessToken",
            "access_token",
            "token", "client_secret", "X-Amz-Signature", "sig", "refresh-token", "password",
        ])
    func secretNames(_ name: String) {
        #expect(Redactor.isSecretHeader(name))
    }

    @Test(
        "ordinary names",
        arguments: [
            "max_output_tokens", "x-ratelimit-remaining-tokens", "api-version", "model", "limit", "order", "after",
            "include",
            "keep-alive", "signal", "monkey", "Content-Type",
        ])
    func ordinaryNames(_ name: String) {
        #expect(!Redactor.isSecretHeader(name))
    }

    /// The request as a gateway sees it: the key in the query and in a header, and both echoed back.
    @Test func theStoreHoldsNeitherTheQueryKeyNorTheHeaderKey() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let url =
            "http://127.0.0.1/v1/responses?api-version=2025-01-01&key=\(Self.queryKey)&access_token=short&model=m#frag"
        let body = #"{"model":"m","max_output_tokens":64,"input":"q=\#(Self.queryKey) h=\#(Self.headerKey)"}"#
        let recording = await store.recorder.exchangeWillStart(
            ExchangeRequest(
                startedAt: Date(), method: "POST", url: url,
                headers: [
                    ("Authorization", "Bearer \(testKey)"), ("X-Goog-Api-Key", Self.headerKey),
                    ("Content-Type", "application/json"),
                ],
                body: Array(body.utf8), secrets: [testKey], context: ExchangeContext()))
        recording.didReceiveHead(
            ExchangeResponseHead(
                status: 200, headers: [("x-echo", "k=\(Self.queryKey)"), ("x-ratelimit-remaining-tokens", "99")],
                timeToFirstByte: .milliseconds(3)))
        recording.didReceiveEvents(
            RecordedEvents([
                RecordedEvent(
                    index: 0, offset: .milliseconds(4), type: "response.output_text.delta", sequenceNumber: 0,
                    data: Array(#"{"delta":"\#(Self.headerKey)"}"#.utf8)),
                RecordedEvent(
                    index: 1, offset: .milliseconds(5), type: "response.output_text.delta", sequenceNumber: 1,
                    data: Array(#"{"delta":" and \#(Self.queryKey)."}"#.utf8)),
            ]))
        recording.didReceiveBody(Array("\(Self.headerKey)|\(Self.queryKey)".utf8))
        try await Deadline.run("the recording's end") {
            await recording.didFinish(ExchangeOutcome(state: .completed, duration: .milliseconds(6)))
        }

        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        // Only the secrets' bytes are replaced: the rest of the URL, the body and the events are exact.
        #expect(
            detail.summary.url
                == "http://127.0.0.1/v1/responses?api-version=2025-01-01&key=[REDACTED]&access_token=[REDACTED]&model=m#frag"
        )
        #expect(
            String(decoding: detail.requestBody, as: UTF8.self)
                == #"{"model":"m","max_output_tokens":64,"input":"q=[REDACTED] h=[REDACTED]"}"#)
        #expect(detail.requestHeaders.map(\.1) == [Redactor.placeholder, Redactor.placeholder, "application/json"])
        #expect(detail.responseHeaders.map(\.1) == ["k=[REDACTED]", "99"])
        #expect(
            detail.events.map { String(decoding: $0.data, as: UTF8.self) } == [
                #"{"delta":"[REDACTED]"}"#, #"{"delta":" and [REDACTED]."}"#,
            ])
        #expect(detail.responseBody.map { String(decoding: $0, as: UTF8.self) } == "[REDACTED]|[REDACTED]")
        let bytes = try store.allBytes()
        for secret in [Self.queryKey, Self.headerKey, testKey, "access_token=short"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the store's files")
        }
    }

    /// A percent-encoded key in the query is the same key in a body, decoded.
    @Test func aPercentEncodedQueryKeyIsRedactedDecodedToo() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let recording = await store.recorder.exchangeWillStart(
            ExchangeRequest(
                startedAt: Date(), method: "GET", url: "http://127.0.0.1/v1/models?api_key=abc%2Fdef%2B123456",
                headers: [],
                body: Array("the key is abc/def+123456".utf8), secrets: [], context: ExchangeContext()))
        try await Deadline.run("the recording's end") {
            await recording.didFinish(ExchangeOutcome(state: .completed, duration: .milliseconds(1)))
        }
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(detail.summary.url == "http://127.0.0.1/v1/models?api_key=[REDACTED]")
        #expect(String(decoding: detail.requestBody, as: UTF8.self) == "the key is [REDACTED]")
    }

    /// Over real HTTP: a provider's key sent in `X-Goog-Api-Key` that the server echoes into the answer's
    /// stream is stored nowhere, neither in events nor in the searchable texts.
    @Test func aHeaderKeyEchoedInAStreamIsStoredNowhere() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let server = try await LoopbackServer.start { request in
            let input = request.jsonBody?["input"] as? String ?? ""
            let key = request.header("x-goog-api-key") ?? ""
            return .sse(Fixtures.textStream(id: "resp_echo1", text: "you sent \(key) with: \(input)"))
        }
        var configuration = Configuration(baseURL: server.baseURL, apiKey: testKey, readTimeout: .seconds(60))
        configuration.extraHeaders = [("X-Goog-Api-Key", Self.headerKey)]
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport, observer: store.recorder)
        for try await _ in client.stream(
            CreateResponseRequest(model: "m", input: .string("is \(Self.headerKey) safe?")))
        {}
        try await waitUntilWritten(store.recorder)
        await transport.shutdown()
        await server.stop()

        let sent = try #require(server.requests.first)
        #expect(sent.header("x-goog-api-key") == Self.headerKey)
        let row = try #require(try await store.store.recentExchanges().first)
        let detail = try #require(try await store.store.exchange(id: row.id))
        #expect(row.state == "completed")
        #expect(String(decoding: detail.requestBody, as: UTF8.self).contains(#""input":"is [REDACTED] safe?""#))
        #expect(
            detail.events.contains {
                String(decoding: $0.data, as: UTF8.self).contains("you sent [REDACTED] with: is [REDACTED] safe?")
            })
        #expect(try store.allBytes().range(of: Data(Self.headerKey.utf8)) == nil)
    }

    /// A header's key in a long answer's final event (outside its repeated text) is met by the wire layer as
    /// the API key is (`RequestSecrets`): the event is recorded whole and the inspector redacts it; every
    /// other event reads back exactly, and the key is stored nowhere.
    @Test func aHeaderKeyInAFinalEventWithoutItsRepeatedTextIsStoredNowhere() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let (frames, _) = Fixtures.apiTextStream(megabytes: 0.5)
        let sent = frames.map { frame in
            frame.contains("response.completed")
                ? frame.replacingOccurrences(
                    of: #""model":"bench-model""#,
                    with: #""model":"bench-model","instructions":"use \#(Self.headerKey)""#)
                : frame
        }
        let detail = try await recordedStream(sent, headers: [("X-Goog-Api-Key", Self.headerKey)], in: store)
        let expected = sent.map {
            Fixtures.eventData($0.replacingOccurrences(of: Self.headerKey, with: Redactor.placeholder))
        }
        #expect(detail.events.map(\.data) == expected, "every event reads back as sent, the key redacted")
        #expect(try store.allBytes().range(of: Data(Self.headerKey.utf8)) == nil)
    }
}
