import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Every endpoint's path, method, query and body as the loopback server received them, and the typed answers.
@Suite("Endpoints over loopback HTTP")
struct EndpointTests {
    @Test func retrieveWithIncludeAndResumeFromASequenceNumber() async throws {
        let server = try await LoopbackServer.start { request in
            request.uri.contains("stream=true")
                ? .sse(Array(Fixtures.frames("stream-hello.sse").dropFirst(4))) : .jsonFixture("response-hello.json")
        }
        let (retrieved, events) = try await withClient(server: server) { client in
            let retrieved = try await client.retrieve(id: "resp_plain1", include: ["message.output_text.logprobs"])
            let events = await collect(client.resume(id: "resp_hello1", startingAfter: 3)).events
            return (retrieved, events)
        }
        await server.stop()
        #expect(retrieved.id == "resp_plain1")
        try #require(server.requests.count == 2)
        #expect(server.requests[0].method == "GET")
        #expect(
            server.requests[0].uri == "/v1/responses/resp_plain1?include%5B%5D=message.output_text.logprobs"
                || server.requests[0].uri == "/v1/responses/resp_plain1?include[]=message.output_text.logprobs")
        #expect(server.requests[1].method == "GET")
        #expect(server.requests[1].uri == "/v1/responses/resp_hello1?stream=true&starting_after=3")
        #expect(server.requests[1].header("accept") == "text/event-stream")
        #expect(events.first?.sequenceNumber == 4)
        #expect(events.finalResponse?.id == "resp_hello1")
    }

    @Test func inputItemsFollowPaginationAcrossPages() async throws {
        let server = try await LoopbackServer.start { request in
            let after = URLComponents(string: request.uri)?.queryItems?.first { $0.name == "after" }?.value
            switch after {
            case nil:
                return .json(
                    #"{"object":"list","data":[{"id":"item_1","type":"message"},{"id":"item_2","type":"message"}],"first_id":"item_1","last_id":"item_2","has_more":true}"#
                )
            case "item_2":
                return .json(
                    #"{"object":"list","data":[{"id":"item_3","type":"message"}],"first_id":"item_3","last_id":"item_3","has_more":false}"#
                )
            default:
                return .json(#"{"error":{"message":"bad cursor"}}"#, status: 400)
            }
        }
        let items = try await withClient(server: server) { client in
            try await client.allInputItems(responseID: "resp_1", pageSize: 2)
        }
        await server.stop()
        #expect(items.compactMap { $0["id"]?.stringValue } == ["item_1", "item_2", "item_3"])
        #expect(
            server.requests.map(\.uri) == [
                "/v1/responses/resp_1/input_items?limit=2", "/v1/responses/resp_1/input_items?limit=2&after=item_2",
            ])
    }

    @Test func deleteCancelCountAndCompact() async throws {
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("DELETE", "/v1/responses/resp_9"):
                .json(#"{"id":"resp_9","object":"response.deleted","deleted":true}"#)
            case ("POST", "/v1/responses/resp_9/cancel"):
                .json(#"{"id":"resp_9","object":"response","status":"cancelled","output":[]}"#)
            case ("POST", "/v1/responses/input_tokens"): .json(#"{"object":"response.input_tokens","input_tokens":42}"#)
            case ("POST", "/v1/responses/compact"):
                .json(
                    #"{"id":"resp_c","object":"response.compaction","output":[{"id":"cmp_1","type":"compaction","encrypted_content":"gAAA"}],"usage":{"input_tokens":9,"output_tokens":3,"total_tokens":12}}"#
                )
            default: .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        let (deleted, cancelled, count, compacted) = try await withClient(server: server) { client in
            let deleted = try await client.delete(id: "resp_9")
            let cancelled = try await client.cancel(id: "resp_9")
            var request = CreateResponseRequest(model: "gpt-5.1", input: "count me")
            request.stream = true
            let count = try await client.countInputTokens(request)
            let compacted = try await client.compact(["model": "gpt-5.1", "previous_response_id": "resp_9"])
            return (deleted, cancelled, count, compacted)
        }
        await server.stop()
        #expect(deleted.deleted && deleted.id == "resp_9")
        #expect(cancelled.status == .cancelled)
        #expect(count == 42)
        try #require(server.requests.count == 4)
        #expect(server.requests[2].jsonBody?["stream"] == nil)  // input_tokens takes no stream flag
        #expect(server.requests[2].jsonBody?["input"] as? String == "count me")
        guard case .compaction(let item)? = compacted.output.first else {
            Issue.record("the compacted output is not a compaction item")
            return
        }
        #expect(item.encryptedContent == "gAAA")
    }

    @Test func conversationsAndTheirItems() async throws {
        let conversation =
            #"{"id":"conv_1","object":"conversation","created_at":1795270000,"metadata":{"topic":"cats"}}"#
        let server = try await LoopbackServer.start { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/conversations"), ("GET", "/v1/conversations/conv_1"),
                ("POST", "/v1/conversations/conv_1"):
                .json(conversation)
            case ("DELETE", "/v1/conversations/conv_1"):
                .json(#"{"id":"conv_1","object":"conversation.deleted","deleted":true}"#)
            case ("GET", "/v1/conversations/conv_1/items"), ("POST", "/v1/conversations/conv_1/items"):
                .json(
                    #"{"object":"list","data":[{"id":"msg_1","type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],"first_id":"msg_1","last_id":"msg_1","has_more":false}"#
                )
            case ("GET", "/v1/conversations/conv_1/items/msg_1"): .json(#"{"id":"msg_1","type":"message"}"#)
            case ("DELETE", "/v1/conversations/conv_1/items/msg_1"): .json(conversation)
            default: .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
        try await withClient(server: server) { client in
            let created = try await client.createConversation(
                items: [["type": "message", "role": "user", "content": "hi"]], metadata: ["topic": "cats"])
            #expect(created.id == "conv_1")
            #expect(created.metadata == ["topic": "cats"])
            #expect(try await client.conversation(id: "conv_1").id == "conv_1")
            _ = try await client.updateConversation(id: "conv_1", metadata: ["topic": "dogs"])
            #expect(try await client.conversationItems(conversationID: "conv_1").data.count == 1)
            _ = try await client.addConversationItems(
                conversationID: "conv_1", items: [["type": "message", "role": "user", "content": "more"]])
            #expect(try await client.conversationItem(conversationID: "conv_1", itemID: "msg_1")["id"] == "msg_1")
            _ = try await client.deleteConversationItem(conversationID: "conv_1", itemID: "msg_1")
            #expect(try await client.deleteConversation(id: "conv_1").deleted)
        }
        await server.stop()
        let seen = server.requests.map { "\($0.method) \($0.path)" }
        #expect(
            seen == [
                "POST /v1/conversations", "GET /v1/conversations/conv_1", "POST /v1/conversations/conv_1",
                "GET /v1/conversations/conv_1/items", "POST /v1/conversations/conv_1/items",
                "GET /v1/conversations/conv_1/items/msg_1", "DELETE /v1/conversations/conv_1/items/msg_1",
                "DELETE /v1/conversations/conv_1",
            ])
        try #require(server.requests.count == 8)
        #expect(server.requests[0].jsonBody?["metadata"] as? [String: String] == ["topic": "cats"])
        #expect(server.requests[2].jsonBody?["metadata"] as? [String: String] == ["topic": "dogs"])
    }

    @Test func headersAreParsedIntoMetadata() async throws {
        let server = try await LoopbackServer.start { _ in
            .jsonFixture(
                "response-hello.json",
                headers: [
                    ("X-Request-ID", "req_meta"), ("openai-processing-ms", "312"),
                    ("x-ratelimit-limit-requests", "5000"), ("x-ratelimit-remaining-requests", "4999"),
                    ("x-ratelimit-limit-tokens", "800000"), ("x-ratelimit-remaining-tokens", "799950"),
                    ("x-ratelimit-reset-requests", "12ms"), ("x-ratelimit-reset-tokens", "6m0s"),
                ])
        }
        let metadata = try await withClient(server: server) { client in
            try await client.createWithMetadata(CreateResponseRequest(model: "m", input: "hi")).metadata
        }
        await server.stop()
        #expect(metadata.status == 200)
        #expect(metadata.requestID == "req_meta")
        #expect(metadata.processingTime == .milliseconds(312))
        let limits = try #require(metadata.rateLimits)
        #expect(limits.limitRequests == 5000 && limits.remainingRequests == 4999)
        #expect(limits.limitTokens == 800_000 && limits.remainingTokens == 799_950)
        #expect(limits.resetRequests == .milliseconds(12))
        #expect(limits.resetTokens == .seconds(360))
    }

    @Test(
        "Go durations as OpenAI sends them",
        arguments: [
            ("0s", 0.0), ("2ms", 2), ("6m0s", 360_000), ("1m7.5s", 67_500), ("1h2m3s", 3_723_000), ("250us", 0.25),
            ("1.5", 1500),
        ])
    func goDurations(_ text: String, _ milliseconds: Double) {
        #expect(RateLimits.parseDuration(text) == .milliseconds(milliseconds))
    }

    @Test func badDurationsAreRejected() {
        for text in ["", "abc", "5x", "m"] { #expect(RateLimits.parseDuration(text) == nil, "\(text)") }
    }

    @Test func readTimeoutIsToldApartFromNetworkErrors() async throws {
        // One event, then a silence longer than the read timeout. (Under a loaded machine the first event may
        // itself come late: the error must be a timeout either way.)
        let server = try await LoopbackServer.start { _ in
            Reply(
                status: 200, headers: [("Content-Type", "text/event-stream")],
                parts: [
                    .bytes(Array((Fixtures.frames("stream-hello.sse").first ?? "").utf8)), .pause(.seconds(4)),
                ])
        }
        let configuration = Configuration(
            baseURL: server.baseURL, apiKey: nil, readTimeout: .seconds(1), retryPolicy: .none)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport)
        let (events, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        await transport.shutdown()
        await server.stop()
        #expect(events.count <= 1)
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("timed out") == true)
    }

    @Test func cancellingTheConsumerCancelsTheRequest() async throws {
        // Held after four events: the consumer gives up after two, before the stream could end.
        let server = try await LoopbackServer.start { _ in .sseFixture("stream-hello.sse", holdingAfter: 4) }
        let observer = CollectingObserver()
        try await withClient(server: server, observer: observer) { client in
            let task = Task {
                var count = 0
                for try await _ in client.stream(CreateResponseRequest(model: "m", input: "hi")) {
                    count += 1
                    if count == 2 { break }
                }
                return count
            }
            let count = try await task.value
            #expect(count == 2)
        }
        await server.stop()
        // The producer notices the cancellation on its own task: wait for its record.
        try await Deadline.poll("the cancelled exchange's record") { observer.exchanges.first?.state != nil }
        #expect(observer.exchanges.first?.state == .cancelled)
        #expect(observer.exchanges.first?.error?.code == .cancelled)
    }

    @Test func malformedEnvironmentIsAConfigurationErrorNamingTheVariable() {
        for (name, value) in [
            ("OPENRESPONSES_MAX_RETRIES", "-1"), ("OPENRESPONSES_TIMEOUT", "soon"),
            ("OPENRESPONSES_CONNECT_TIMEOUT", "0"),
        ] {
            do {
                _ = try Configuration(environment: [name: value])
                Issue.record("\(name)=\(value) was accepted")
            } catch {
                #expect(error.code == .configuration)
                #expect(error.message.contains(name))
            }
        }
        let configuration = try? Configuration(environment: [
            "OPENRESPONSES_MAX_RETRIES": "5", "OPENRESPONSES_TIMEOUT": "1.5",
        ])
        #expect(configuration?.retryPolicy.maxRetries == 5)
        #expect(configuration?.readTimeout == .milliseconds(1500))
    }

    /// A value pasted with spaces, tabs or a line break around it is the value; one of only those is unset.
    @Test func environmentValuesAreTrimmedAndBlankIsUnset() throws {
        let configuration = try Configuration(environment: [
            "OPENAI_BASE_URL": " \thttp://127.0.0.1:8321/v1/\n", "OPENAI_ORG_ID": " \n\t ",
            "OPENRESPONSES_TIMEOUT": "\n2\n",
        ])
        #expect(configuration.baseURL == "http://127.0.0.1:8321/v1")
        #expect(configuration.organization == nil)
        #expect(configuration.readTimeout == .seconds(2))
        // Inside the value, a space is kept: a key holding one is refused (it cannot go into a header).
        #expect(throws: ResponsesAPIError.self) { try Configuration(environment: ["OPENAI_API_KEY": " sk-a b\n"]) }
        #expect(try Configuration(environment: ["OPENAI_API_KEY": "\u{00A0}sk-ab\r\n"]).apiKey == "sk-ab")
    }
}
