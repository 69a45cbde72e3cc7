import Foundation
import ResponsesAPI
import TestSupport
import Testing

@Suite("Responses client over loopback HTTP")
struct ResponsesClientTests {
    @Test func streamedAnswer() async throws {
        let server = try await LoopbackServer.start { _ in
            .sseFixture("stream-hello.sse", headers: [("x-request-id", "req_stream1")])
        }
        let (events, error) = try await withClient(server: server) { client in
            await collect(client.stream(CreateResponseRequest(model: "gpt-4.1-mini", input: "Say hello")))
        }
        await server.stop()
        #expect(error == nil)
        #expect(events.deltaText == "Hello there, héllo wörld 👋")
        let final = try #require(events.finalResponse)
        #expect(final.id == "resp_hello1")
        #expect(final.outputText == events.deltaText)
        #expect(
            final.usage
                == Usage(inputTokens: 21, cachedInputTokens: 3, outputTokens: 9, reasoningTokens: 0, totalTokens: 30))
        // The unknown event is delivered, typed as .unknown, and did not break anything.
        #expect(events.contains { $0.type == "response.future_feature.delta" && $0.kind == .unknown })
        #expect(events.map(\.sequenceNumber) == Array(0...11).map(Optional.some))

        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/v1/responses")
        #expect(request.header("authorization") == "Bearer sk-test-0123456789abcdef")
        #expect(request.header("accept") == "text/event-stream")
        #expect(request.header("content-type") == "application/json")
        let body = try #require(request.jsonBody)
        #expect(body["model"] as? String == "gpt-4.1-mini")
        #expect(body["input"] as? String == "Say hello")
        #expect(body["stream"] as? Bool == true)
    }

    @Test func nonStreamedAnswer() async throws {
        let server = try await LoopbackServer.start { _ in .jsonFixture("response-hello.json") }
        let response = try await withClient(server: server) { client in
            try await client.create(CreateResponseRequest(model: "gpt-4.1-mini", input: "Whole please"))
        }
        await server.stop()
        #expect(response.id == "resp_plain1")
        #expect(response.outputText == "A whole answer, not streamed.")
        #expect(response.status == .completed)
        #expect(server.requests.first?.jsonBody?["stream"] as? Bool == false)
    }

    @Test func httpErrorCarriesOpenAIErrorAndRequestID() async throws {
        let server = try await LoopbackServer.start { _ in
            .jsonFixture("error-model-not-found.json", status: 404, headers: [("X-Request-ID", "req_abc123")])
        }
        let (events, error) = try await withClient(server: server) { client in
            await collect(client.stream(CreateResponseRequest(model: "gpt-nonexistent", input: "hi")))
        }
        await server.stop()
        #expect(events.isEmpty)
        let failure = try #require(error)
        #expect(failure.code == .http)
        #expect(failure.status == 404)
        #expect(failure.apiType == "invalid_request_error")
        #expect(failure.apiCode == "model_not_found")
        #expect(failure.apiParam == "model")
        #expect(failure.requestID == "req_abc123")
        #expect(failure.message.contains("does not exist"))
        #expect(server.requests.count == 1)  // the body of the failure was read once, not re-requested
    }

    @Test func nonStreamedHTTPErrorIsTyped() async throws {
        let server = try await LoopbackServer.start { _ in
            .json(
                #"{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#,
                status: 401)
        }
        await #expect {
            try await withClient(server: server) { client in
                try await client.create(CreateResponseRequest(model: "m", input: "hi"))
            }
        } throws: { error in
            let error = error as? ResponsesAPIError
            return error?.status == 401 && error?.apiCode == "invalid_api_key" && error?.code == .http
        }
        await server.stop()
    }

    @Test func errorEventThenFailedResponse() async throws {
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-error-then-failed.sse") }
        let (events, error) = try await withClient(server: server) { client in
            await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        }
        await server.stop()
        #expect(error == nil)  // response.failed is a terminal event: the stream ends normally
        #expect(events.deltaText == "Partial ")
        let errorEvent = try #require(events.first { $0.type == "error" })
        #expect(
            errorEvent.kind
                == .error(
                    StreamErrorPayload(
                        type: "server_error", code: "server_error",
                        message: "The server had an error while processing your request.")))
        #expect(events.finalResponse?.status == .failed)
        #expect(events.finalResponse?.error?.code == "server_error")
    }

    @Test func flatErrorEventShapeIsAccepted() throws {
        let event = ResponseStreamEvent(
            json: try JSONValue.parse(
                Array(
                    #"{"type":"error","code":"rate_limit_exceeded","message":"Slow down","param":null,"sequence_number":3}"#
                        .utf8)))
        #expect(event.kind == .error(StreamErrorPayload(code: "rate_limit_exceeded", message: "Slow down")))
    }

    @Test func streamEndingWithoutTerminalEventIsTruncated() async throws {
        let frames = Array(Fixtures.frames("stream-hello.sse").prefix(7))
        let server = try await LoopbackServer.start { _ in .sse(frames) }
        // The read timeout far past any stall of the whole suite: in full runs (CI, every suite at once) the
        // server's drop, a 50 ms sleep and a close, has come 55–100 s late, together with other suites' tests
        // that ended at the same instant; a 60 s read timeout then ended the stream first, as a timeout.
        let (events, error) = try await withClient(
            baseURL: server.baseURL, apiKey: "sk-test-0123456789abcdef", readTimeout: .seconds(600)
        ) { client in
            await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        }
        await server.stop()
        #expect(events.deltaText == "Hello there, ")
        #expect(error?.code == .truncatedStream)
    }

    /// The server drops the connection once the client has read the text (a `Gate`): bytes the client
    /// library has received but not yet handed over when a connection closes are dropped by it
    /// (AsyncHTTPClient fails the body at once), which a busy machine made happen in a full run.
    @Test func connectionDroppedMidStreamKeepsPartialText() async throws {
        let frames = Array(Fixtures.frames("stream-hello.sse").prefix(7))
        let gate = Gate()
        let server = try await LoopbackServer.start { _ in
            .sse(frames, headers: [("x-request-id", "req_drop")], dropAtEnd: true, droppingAt: gate)
        }
        // The read timeout far past any stall of the whole suite, as in its twin in RetryTests: the drop now waits
        // for the client's reading task, and a 60 s timeout ended the stream first once, as a timeout.
        let (events, error) = try await withClient(
            baseURL: server.baseURL, apiKey: "sk-test-0123456789abcdef", readTimeout: .seconds(600)
        ) { client in
            await collect(
                client.stream(CreateResponseRequest(model: "m", input: "hi")), opening: gate, atText: "Hello there, ")
        }
        await server.stop()
        #expect(events.deltaText == "Hello there, ")
        let failure = try #require(error)
        #expect(failure.code == .network || failure.code == .truncatedStream, "\(failure.code): \(failure.message)")
        #expect(failure.requestID == "req_drop")
    }

    @Test func missingKeyForOpenAIIsAConfigurationError() throws {
        let configuration = try Configuration(environment: [:])
        #expect(throws: ResponsesAPIError.self) { try configuration.validate() }
        do {
            try configuration.validate()
        } catch {
            #expect(error.code == .configuration)
            #expect(error.message.contains("OPENAI_API_KEY"))
        }
        // A custom server needs no key.
        try Configuration(environment: ["OPENAI_BASE_URL": "http://127.0.0.1:8321/v1"]).validate()
    }

    @Test func organizationAndProjectHeadersAreSent() async throws {
        let server = try await LoopbackServer.start { _ in .jsonFixture("response-hello.json") }
        let configuration = try Configuration(
            environment: [
                "OPENAI_BASE_URL": server.baseURL + "/", "OPENAI_API_KEY": "sk-x-123456789",
                "OPENAI_ORG_ID": "org_1", "OPENAI_PROJECT_ID": "proj_2",
            ])
        #expect(configuration.baseURL == server.baseURL)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        _ = try await ResponsesClient(configuration: configuration, transport: transport)
            .create(CreateResponseRequest(model: "m", input: "hi"))
        await transport.shutdown()
        await server.stop()
        #expect(server.requests.first?.header("OpenAI-Organization") == "org_1")
        #expect(server.requests.first?.header("OpenAI-Project") == "proj_2")
    }
}
