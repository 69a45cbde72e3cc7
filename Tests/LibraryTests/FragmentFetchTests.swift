import Foundation
import Library
import ResponsesAPI
import TestSupport
import Testing

/// Fragments fetched from a URL (a loopback server): read by Content-Type (HTML as its text, a PDF through
/// poppler), sent without credentials, and refused by name when the server answers an error, the body is
/// over the cap, or no answer comes in time.
@Suite("Fragment fetching")
struct FragmentFetchTests {
    static let page = """
        <!doctype html><html><head><title>Page</title><style>body { color: red }</style></head>
        <body><h1>Field notes</h1><p>Penguins &amp; krill.</p><script>track()</script></body></html>
        """

    static let route: LoopbackServer.Route = { request in
        switch request.path {
        case "/page.html":
            Reply(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], parts: [.bytes(Array(page.utf8))])
        case "/report":
            Reply(
                status: 200, headers: [("Content-Type", "application/pdf")],
                parts: [.bytes(Array(PDFWriter.text(pages: [["A fetched PDF page."]])))])
        case "/big.txt":
            Reply(
                status: 200, headers: [("Content-Type", "text/plain")],
                parts: [.bytes(Array(repeating: 0x61, count: 5000))])
        case "/streamed.txt":
            Reply(
                status: 200, headers: [("Content-Type", "text/plain")],
                parts: [
                    .bytes(Array(repeating: 0x61, count: 3000)), .pause(.milliseconds(1)),
                    .bytes(Array(repeating: 0x62, count: 3000)),
                ])
        case "/slow.txt":
            Reply(
                status: 200, headers: [("Content-Type", "text/plain")], parts: [.pause(.seconds(30)), .bytes([0x61])])
        default:
            Reply(status: 404, headers: [("Content-Type", "text/plain")], parts: [.bytes(Array("not here".utf8))])
        }
    }

    func withFetcher(
        maxBytes: Int = FragmentFetcher.defaultMaxBytes, timeout: Duration = .seconds(20),
        _ body: (FragmentReader, LoopbackServer) async throws -> Void
    ) async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let transport = AsyncHTTPClientTransport(
            configuration: Configuration(baseURL: server.baseURL, apiKey: "sk-fragment-test-key"))
        let reader = FragmentReader(
            extractors: Extractors(environment: ProcessInfo.processInfo.environment),
            fetcher: FragmentFetcher(transport: transport, maxBytes: maxBytes, timeout: timeout),
            directory: FileManager.default.temporaryDirectory)
        do {
            try await body(reader, server)
        } catch {
            await transport.shutdown()
            await server.stop()
            throw error
        }
        await transport.shutdown()
        await server.stop()
    }

    func url(_ server: LoopbackServer, _ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    @Test func htmlAndPDFAreReadByTheirContentTypeWithoutCredentials() async throws {
        try await withFetcher { reader, server in
            let batch = try await reader.read([url(server, "/page.html"), url(server, "/report")], standardInput: nil)
            let page = try #require(batch.fragments.first)
            #expect(page.source == url(server, "/page.html") && page.type == .html)
            #expect(page.text.contains("Field notes") && page.text.contains("Penguins & krill."))
            #expect(!page.text.contains("track()") && !page.text.contains("color") && !page.text.contains("<p>"))
            #expect(batch.fragments.last?.text.contains("A fetched PDF page.") == true)
            let requests = server.requests
            #expect(requests.count == 2 && requests.allSatisfy { $0.method == "GET" })
            #expect(requests.allSatisfy { $0.header("Authorization") == nil }, "\(requests.map(\.headers))")
        }
    }

    @Test func anErrorAnswerABodyOverTheCapAndSilenceAreRefusedByName() async throws {
        // A generous deadline for the answers that come (a loaded machine once took over a second to stream
        // 5 KB from the loopback server), a short one for the server that never answers.
        try await withFetcher(maxBytes: 4096, timeout: .seconds(60)) { reader, server in
            let missing = url(server, "/missing.html")
            await #expect { try await reader.read([missing], standardInput: nil) } throws: {
                ($0 as? FragmentError)?.description == "fragment \(missing): the server answered HTTP 404"
            }
            await #expect { try await reader.read([url(server, "/big.txt")], standardInput: nil) } throws: {
                ($0 as? FragmentError)?.message == "its body is 4.9 KB, over the 4.0 KB a fragment may fetch"
            }
            await #expect { try await reader.read([url(server, "/streamed.txt")], standardInput: nil) } throws: {
                ($0 as? FragmentError)?.message == "its body is over the 4.0 KB a fragment may fetch"
            }
        }
        try await withFetcher(maxBytes: 4096, timeout: .seconds(1)) { reader, server in
            await #expect { try await reader.read([url(server, "/slow.txt")], standardInput: nil) } throws: {
                ($0 as? FragmentError)?.message == "no answer within 1 s"
            }
        }
    }
}
