import Foundation
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// Retries as the official SDKs do, against a real loopback server; waits are recorded (and really slept).
@Suite("Retries over loopback HTTP")
struct RetryTests {
    final class Waits: Sendable {
        private let storage = Mutex<[Duration]>([])
        var all: [Duration] { storage.withLock { $0 } }
        func sleep(_ duration: Duration) async throws {
            storage.withLock { $0.append(duration) }
            try await Task.sleep(for: duration)
        }
    }

    func client(
        _ server: LoopbackServer, waits: Waits, policy: RetryPolicy = .default, observer: (any ExchangeObserver)? = nil,
        readTimeout: Duration = .seconds(60)
    ) -> (ResponsesClient, AsyncHTTPClientTransport) {
        let configuration = Configuration(
            baseURL: server.baseURL, apiKey: "sk-test-0123456789abcdef", readTimeout: readTimeout, retryPolicy: policy)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(
            configuration: configuration, transport: transport, observer: observer,
            sleep: { try await waits.sleep($0) },
            random: { 0 })
        return (client, transport)
    }

    static let rateLimited =
        #"{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}"#

    @Test func rateLimitWithRetryAfterIsRetriedOnceAfterWaiting() async throws {
        let attempts = Counter()
        let server = try await LoopbackServer.start { _ in
            attempts.next() == 1
                ? .json(Self.rateLimited, status: 429, headers: [("retry-after", "1"), ("x-request-id", "req_429")])
                : .sseFixture("stream-hello.sse")
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        let started = ContinuousClock.now
        let (events, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        let elapsed = ContinuousClock.now - started
        await transport.shutdown()
        await server.stop()
        #expect(error == nil)
        #expect(events.deltaText == "Hello there, héllo wörld 👋")
        let requests = server.requests
        try #require(requests.count == 2)
        #expect(waits.all == [.seconds(1)])
        #expect(elapsed >= .seconds(1))
        #expect(requests[0].body == requests[1].body)
    }

    @Test func retryAfterMillisecondsWinsOverSeconds() async throws {
        let attempts = Counter()
        let server = try await LoopbackServer.start { _ in
            attempts.next() == 1
                ? .json(Self.rateLimited, status: 429, headers: [("retry-after-ms", "150"), ("retry-after", "30")])
                : .jsonFixture("response-hello.json")
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        let response = try await client.create(CreateResponseRequest(model: "m", input: "hi"))
        await transport.shutdown()
        await server.stop()
        #expect(response.id == "resp_plain1")
        #expect(waits.all == [.milliseconds(150)])
    }

    @Test func rateLimitAskingForAnHourIsNotRetried() async throws {
        let server = try await LoopbackServer.start { _ in
            .json(Self.rateLimited, status: 429, headers: [("retry-after", "3600"), ("x-request-id", "req_hour")])
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        let (events, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        await transport.shutdown()
        await server.stop()
        #expect(events.isEmpty)
        #expect(server.requests.count == 1)
        #expect(waits.all.isEmpty)
        let failure = try #require(error)
        #expect(failure.status == 429)
        #expect(failure.apiCode == "rate_limit_exceeded")
        #expect(failure.requestID == "req_hour")
        #expect(failure.description.contains("asks to wait 60 min before retrying"))
        #expect(failure.description.contains("not retried"))
    }

    @Test func serverErrorOnceThenSuccessUsesBackoff() async throws {
        let attempts = Counter()
        let server = try await LoopbackServer.start { _ in
            attempts.next() == 1
                ? .json(
                    #"{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}"#,
                    status: 500)
                : .sseFixture("stream-hello.sse")
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        let (events, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        await transport.shutdown()
        await server.stop()
        #expect(error == nil)
        #expect(events.finalResponse?.status == .completed)
        #expect(server.requests.count == 2)
        #expect(waits.all == [.milliseconds(500)])  // initial backoff, no jitter with random() == 0
    }

    @Test func retriesStopAtTheConfiguredMaximum() async throws {
        let server = try await LoopbackServer.start { _ in .json(#"{"error":{"message":"down"}}"#, status: 503) }
        let waits = Waits()
        let policy = RetryPolicy(maxRetries: 2, initialDelay: .milliseconds(20))
        let (client, transport) = client(server, waits: waits, policy: policy)
        await #expect(throws: ResponsesAPIError.self) {
            try await client.create(CreateResponseRequest(model: "m", input: "hi"))
        }
        await transport.shutdown()
        await server.stop()
        #expect(server.requests.count == 3)
        #expect(waits.all == [.milliseconds(20), .milliseconds(40)])
    }

    @Test func shouldRetryHeaderOverridesTheStatus() async throws {
        let attempts = Counter()
        let server = try await LoopbackServer.start { _ in
            switch attempts.next() {
            case 1:
                .json(
                    #"{"error":{"message":"odd"}}"#, status: 400,
                    headers: [("x-should-retry", "true"), ("retry-after-ms", "10")])
            case 2: .json(#"{"error":{"message":"busy"}}"#, status: 503, headers: [("x-should-retry", "false")])
            default: .jsonFixture("response-hello.json")
            }
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        await #expect {
            try await client.create(CreateResponseRequest(model: "m", input: "hi"))
        } throws: { error in
            (error as? ResponsesAPIError)?.status == 503
        }
        await transport.shutdown()
        await server.stop()
        #expect(server.requests.count == 2)
        #expect(waits.all == [.milliseconds(10)])
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let server = try await LoopbackServer.start { _ in
            .json(
                #"{"error":{"message":"Invalid 'temperature'","type":"invalid_request_error","param":"temperature","code":"decimal_below_min_value"}}"#,
                status: 400)
        }
        let waits = Waits()
        let (client, transport) = client(server, waits: waits)
        await #expect(throws: ResponsesAPIError.self) {
            try await client.create(CreateResponseRequest(model: "m", input: "hi"))
        }
        await transport.shutdown()
        await server.stop()
        #expect(server.requests.count == 1)
        #expect(waits.all.isEmpty)
    }

    @Test func connectionRefusedIsRetriedThenReportedAsNetwork() async throws {
        // A port nobody listens on, kept so for the whole test (a stopped server's port could go to another
        // test's server, which would answer or reset instead).
        let refusing = try RefusingPort()
        let baseURL = refusing.baseURL
        let waits = Waits()
        let configuration = Configuration(
            baseURL: baseURL, apiKey: nil, connectTimeout: .seconds(120), readTimeout: .seconds(5),
            retryPolicy: RetryPolicy(maxRetries: 1, initialDelay: .milliseconds(10)))
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(
            configuration: configuration, transport: transport, sleep: { try await waits.sleep($0) }, random: { 0 })
        let started = ContinuousClock.now
        let (_, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        await transport.shutdown()
        // A refused connection is reported when it is refused, not when the connect timeout ends (a bound
        // on waiting, far from any speed: the refusal takes milliseconds, the timeout two minutes; a run
        // beside a build once took 65 s here, so the bound is just under the timeout, and the message below
        // says which of the two it was).
        #expect(ContinuousClock.now - started < .seconds(110))
        #expect(error?.code == .network)
        #expect(error?.message == "network error with 127.0.0.1:\(refusing.port): connection refused")
        #expect(waits.all == [.milliseconds(10)])
    }

    @Test func aNameThatDoesNotResolveSaysSo() async throws {
        // `.invalid` never resolves (RFC 6761), with or without a network.
        let configuration = Configuration(
            baseURL: "http://openresponses-test.invalid/v1", apiKey: nil, readTimeout: .seconds(5), retryPolicy: .none)
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let client = ResponsesClient(configuration: configuration, transport: transport)
        let (_, error) = await collect(client.stream(CreateResponseRequest(model: "m", input: "hi")))
        await transport.shutdown()
        #expect(error?.code == .network)
        #expect(error?.message == "cannot connect to openresponses-test.invalid:80: the name does not resolve")
    }

    @Test func connectionResetMidStreamIsNeverRetriedAndKeepsPartialText() async throws {
        let frames = Array(Fixtures.frames("stream-hello.sse").prefix(7))
        let gate = Gate()  // the drop comes once the client has the text (see Reply.sse's droppingAt)
        let server = try await LoopbackServer.start { _ in
            .sse(frames, headers: [("x-request-id", "req_reset")], dropAtEnd: true, droppingAt: gate)
        }
        let waits = Waits()
        // The read timeout far past any stall of the whole suite: in full runs the server's drop has come up to
        // 100 s late (see ResponsesClientTests.connectionDroppedMidStreamKeepsPartialText), and a 60 s timeout
        // then ended the stream first, as a timeout.
        let (client, transport) = client(server, waits: waits, readTimeout: .seconds(600))
        let (events, error) = await collect(
            client.stream(CreateResponseRequest(model: "m", input: "hi")), opening: gate, atText: "Hello there, ")
        await transport.shutdown()
        await server.stop()
        #expect(events.deltaText == "Hello there, ")
        #expect(server.requests.count == 1)
        #expect(waits.all.isEmpty)
        let failure = try #require(error)
        #expect(failure.code == .network || failure.code == .truncatedStream, "\(failure.code): \(failure.message)")
        #expect(failure.requestID == "req_reset")
    }

    @Test func everyAttemptIsReportedToTheObserver() async throws {
        let attempts = Counter()
        let server = try await LoopbackServer.start { _ in
            attempts.next() == 1
                ? .json(Self.rateLimited, status: 429, headers: [("retry-after-ms", "5")])
                : .jsonFixture("response-hello.json")
        }
        let observer = CollectingObserver()
        let (client, transport) = client(server, waits: Waits(), observer: observer)
        _ = try await client.create(CreateResponseRequest(model: "m", input: "hi"))
        await transport.shutdown()
        await server.stop()
        let seen = observer.exchanges
        #expect(seen.map(\.attempt) == [0, 1])
        #expect(seen.map(\.state) == [.failed, .completed])
        #expect(seen.first?.error?.retryDelay == .milliseconds(5))
    }

    @Test func decisionRules() {
        let policy = RetryPolicy.default
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        func decide(_ status: Int, _ headers: [(String, String)] = [], retry: Int = 0) -> RetryPolicy.Decision {
            policy.decision(status: status, headers: headers, retry: retry, now: now, random: 1)
        }
        #expect(decide(408) == .retry(after: .milliseconds(375)))
        #expect(decide(409) == .retry(after: .milliseconds(375)))
        #expect(decide(500, retry: 1) == .retry(after: .milliseconds(750)))
        #expect(decide(404) == .giveUp(reason: nil))
        #expect(decide(503, retry: 2) == .giveUp(reason: nil))
        #expect(decide(429, [("Retry-After", "2.5")]) == .retry(after: .milliseconds(2500)))
        #expect(decide(429, [("retry-after", "Fri, 15 Jan 2027 08:00:30 GMT")]) == .retry(after: .seconds(30)))
        #expect(decide(429, [("retry-after", "120")]) == .retry(after: .seconds(120)))
        if case .giveUp(let reason) = decide(429, [("retry-after", "121")]) {
            #expect(reason?.contains("not retried") == true)
        } else {
            Issue.record("a wait over 120 s must not be retried")
        }
        // Backoff is capped at 8 s.
        let long = RetryPolicy(maxRetries: 10)
        #expect(long.decision(status: 500, headers: [], retry: 6, now: now, random: 0) == .retry(after: .seconds(8)))
    }
}
