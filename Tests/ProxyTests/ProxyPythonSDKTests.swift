import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// The official OpenAI Python SDK, a client nobody here wrote, pointed at the proxy: in front of the
/// loopback server (where the bytes the upstream sent are known exactly) and in front of the peer's
/// llama-stack (an independent server). Responses streamed and whole, a file upload, a vector store search.
@Suite(
    "recording proxy: the official Python SDK",
    .enabled(if: PythonSDK.isAvailable, "the OpenAI Python SDK is not installed (scripts/python-sdk.sh)"))
struct ProxyPythonSDKTests {
    /// Prints one JSON line: the raw bytes the SDK received for each call (base64), and what it parsed.
    static let script = #"""
        import base64, json, os, openai
        client = openai.OpenAI()
        model = os.environ["MODEL"]
        out = {}
        raw = client.responses.with_raw_response.create(model=model, input="Say hello through the proxy.")
        out["whole"] = base64.b64encode(raw.http_response.content).decode()
        out["whole_id"] = raw.parse().id
        with client.responses.with_streaming_response.create(model=model, input="Stream through the proxy.", stream=True) as r:
            out["stream"] = base64.b64encode(b"".join(r.iter_bytes())).decode()
        text = "".join(e.delta for e in client.responses.create(model=model, input="Stream again.", stream=True) if e.type == "response.output_text.delta")
        out["streamed_text"] = text
        uploaded = client.files.create(file=("notes.txt", b"Bees dance to tell where flowers are.\n"), purpose="assistants")
        out["file_id"] = uploaded.id
        store = os.environ.get("STORE_ID")
        if not store:
            store = client.vector_stores.create(name="proxy-test", file_ids=[uploaded.id]).id
            out["created_store"] = store
        results = client.vector_stores.search(vector_store_id=store, query="How do bees tell where flowers are?")
        out["hits"] = [c.text for hit in results.data for c in hit.content]
        print(json.dumps(out))
        """#

    @Test func inFrontOfTheLoopbackServer() async throws {
        let frames = Fixtures.textStream(id: "resp_sdk", text: "hello from upstream ✓")
        let whole =
            #"{"id":"resp_whole_sdk","object":"response","created_at":1,"status":"completed","model":"test-model","output":[],"usage":{"input_tokens":2,"output_tokens":3,"total_tokens":5}}"#
        let search =
            #"{"object":"vector_store.search_results.page","search_query":["q"],"data":[{"file_id":"file-sdk","filename":"notes.txt","score":0.9,"attributes":{},"content":[{"type":"text","text":"Bees dance."}]}],"has_more":false,"next_page":null}"#
        let upstream = try await LoopbackServer.start { request in
            switch request.path {
            case "/v1/files":
                .json(
                    #"{"id":"file-sdk","object":"file","bytes":38,"created_at":1,"filename":"notes.txt","purpose":"assistants","status":"processed"}"#
                )
            case "/v1/vector_stores/vs_sdk/search": .json(search)
            default: (request.jsonBody?["stream"] as? Bool) == true ? .sse(frames) : .json(whole)
            }
        }
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL)
        defer { proxy.remove(stopping: upstream) }
        let result = try await PythonSDK.run(
            Self.script, baseURL: proxy.baseURL, key: "sk-sdk-secret-0002",
            extra: ["MODEL": "test-model", "STORE_ID": "vs_sdk"])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(
            out["whole"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Data(whole.utf8),
            "the SDK got the upstream's bytes")
        #expect(out["stream"]?.stringValue.flatMap { Data(base64Encoded: $0) } == Data(frames.joined().utf8))
        #expect(out["whole_id"] == "resp_whole_sdk")
        #expect(out["streamed_text"] == "hello from upstream ✓")
        #expect(out["hits"] == .array(["Bees dance."]))
        let upload = try #require(upstream.requests.first { $0.path == "/v1/files" })
        #expect(String(decoding: upload.body, as: UTF8.self).contains("Bees dance to tell where flowers are.\n"))

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(
            rows.map { "\($0.summary.method) \(URL(string: $0.summary.url)!.path)" } == [
                "POST /v1/responses", "POST /v1/responses", "POST /v1/responses", "POST /v1/files",
                "POST /v1/vector_stores/vs_sdk/search",
            ])
        #expect(rows.allSatisfy { $0.summary.state == "completed" && $0.summary.source == "proxy" })
        #expect(
            rows.allSatisfy {
                $0.summary.client?.contains("OpenAI/Python") == true && $0.summary.client?.contains("(python") == true
            },
            "\(rows.map(\.summary.client))")
        #expect(rows[1].events.count == frames.count && rows[2].events.count == frames.count)
        #expect(rows[3].requestBody == upload.body, "the multipart upload's exact bytes")
        #expect(try !proxy.storeContains("sk-sdk-secret-0002"))
    }

    @Test(.enabled(if: PeerServer.baseURL != nil, "\(PeerServer.skipReason)"))
    func inFrontOfThePeer() async throws {
        let peer = try #require(PeerServer.baseURL)
        let proxy = try await ProxyHarness.start(upstream: peer)
        defer { proxy.remove() }
        let result = try await PythonSDK.run(
            Self.script, baseURL: proxy.baseURL, key: "sk-sdk-peer-0003", extra: ["MODEL": PeerServer.model])
        #expect(result.status == 0, "\(result.stderr)")
        let out = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(out["streamed_text"]?.stringValue?.isEmpty == false)
        #expect(out["hits"]?.arrayValue?.isEmpty == false, "the store found the uploaded note: \(result.stdout)")
        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        let paths = rows.map { URL(string: $0.summary.url)!.path }
        #expect(paths.filter { $0 == "/v1/responses" }.count == 3)
        #expect(paths.contains("/v1/files") && paths.contains("/v1/vector_stores"))
        #expect(
            rows.allSatisfy { $0.summary.source == "proxy" && ($0.summary.status ?? 0) < 400 },
            "\(rows.map { ($0.summary.url, $0.summary.status) })")
        let streamed = rows.filter { $0.summary.streamed }
        #expect(streamed.count == 2 && streamed.allSatisfy { $0.summary.state == "completed" && !$0.events.isEmpty })
        // What the SDK got for the streamed call is what the inspector stored, event by event.
        let sse =
            out["stream"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
            ?? ""
        let sentData = sse.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.map {
            String($0.dropFirst(6))
        }
        #expect(streamed[0].events.map { String(decoding: $0.data, as: UTF8.self) } == sentData)
        // Clean up on the peer.
        for id in [out["created_store"]?.stringValue].compactMap({ $0 }) {
            _ = try? await Subprocess.run(
                "/usr/bin/curl", ["-s", "-X", "DELETE", "\(peer)/vector_stores/\(id)"], environment: [:])
        }
        if let file = out["file_id"]?.stringValue {
            _ = try? await Subprocess.run(
                "/usr/bin/curl", ["-s", "-X", "DELETE", "\(peer)/files/\(file)"], environment: [:])
        }
    }

    /// A team's proxy: alice's first call goes through, her second is over her budget, and the SDK raises the
    /// 429 as a `RateLimitError` with the proxy's code and message at once, without retrying it (the proxy sends
    /// `Retry-After` until midnight UTC and `x-should-retry: false`; without them the SDK retried it twice). bob,
    /// with no budget, goes on.
    @Test func overBudgetTheSDKRaisesAtOnce() async throws {
        let whole =
            #"{"id":"resp_team_sdk","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[],"usage":{"input_tokens":1000000,"output_tokens":0,"total_tokens":1000000}}"#
        let upstream = try await LoopbackServer.start { _ in .json(whole) }
        let users = ProxyUsers([
            .init(name: "alice", token: "s3cr3t-sdk-alice", budget: 1), .init(name: "bob", token: "s3cr3t-sdk-bob"),
        ])
        let proxy = try await ProxyHarness.start(upstream: upstream.baseURL, upstreamKey: "sk-team-0040", users: users)
        defer { proxy.remove(stopping: upstream) }
        let script = #"""
            import json, openai
            client = openai.OpenAI()
            out = {"first": client.responses.create(model="gpt-5.1", input="hi").id}
            try:
                client.responses.create(model="gpt-5.1", input="again")
            except openai.RateLimitError as e:
                out["status"], out["code"], out["type"], out["message"] = e.status_code, e.code, e.type, e.message
            print(json.dumps(out))
            """#
        let alice = try await PythonSDK.run(script, baseURL: proxy.baseURL, key: "s3cr3t-sdk-alice")
        #expect(alice.status == 0, "\(alice.stderr)")
        let out = try JSONValue.parse(Array(alice.stdout.utf8))
        #expect(out["first"] == "resp_team_sdk")
        #expect(out["status"] == 429 && out["code"] == "budget_exceeded" && out["type"] == "budget_exceeded")
        #expect(
            out["message"]?.stringValue?.contains("user alice has spent $1.25 of its daily budget of $1.00") == true)
        let bob = try await PythonSDK.run(script, baseURL: proxy.baseURL, key: "s3cr3t-sdk-bob")
        #expect(try JSONValue.parse(Array(bob.stdout.utf8))["code"] == nil, "\(bob.stdout)\(bob.stderr)")
        #expect(upstream.requests.count == 3, "alice's refused call reached nothing upstream")

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(
            rows.map { "\($0.summary.user ?? "-") \($0.summary.status ?? 0)" } == [
                "alice 200", "alice 429", "bob 200", "bob 200",
            ], "one refusal: the SDK did not retry it")
    }
}
