import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49: what is piped into `ask` is measured before anything is sent. Binary bytes are refused with
/// their size and kind (the server sees nothing); an image or a PDF goes as a file beside the prompt; text
/// over the limit is refused with its estimated tokens and cost, and sent with `--allow-large-input`.
@Suite("ask: guarded input")
struct GuardedInputTests {
    static let echo: LoopbackServer.Route = { _ in
        .sse(Fixtures.textStream(id: "resp_in", text: "seen"))
    }

    /// `count` bytes from a fixed generator (reproducible), with NUL bytes and invalid UTF-8 throughout.
    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func binaryBytesAreRefusedWithTheirSizeAndKindAndNothingIsSent() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let random = try await harness.run(["ask", "what is this"], stdin: Self.noise(300_000))
        #expect(random.status == 2, "\(random.stderr)")
        #expect(
            random.stderr.contains("stdin: 293.0 KB of binary data (not UTF-8 text")
                && random.stderr.contains("nothing was sent"), "\(random.stderr)")
        let zip = try await harness.run(["ask", "what is this"], stdin: [0x50, 0x4B, 0x03, 0x04] + Self.noise(1000))
        #expect(zip.status == 2)
        #expect(zip.stderr.contains("1004 bytes of ZIP archive"), "\(zip.stderr)")
        #expect(harness.server.requests.isEmpty, "the server saw a request")
    }

    @Test func anImageOrAPDFGoesAsAFileBesideThePrompt() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.noise(64)
        let image = try await harness.run(["ask", "describe it"], stdin: png)
        #expect(image.status == 0, "\(image.stderr)")
        let sent = try #require(harness.server.requests.last?.body)
        let body = try JSONValue.parse(sent)
        let content = try #require(body["input"]?[0]?["content"]?.arrayValue)
        #expect(content.first == ["type": "input_text", "text": "describe it"])
        #expect(content.last?["type"] == "input_image")
        #expect(content.last?["image_url"]?.stringValue == "data:image/png;base64," + Data(png).base64EncodedString())

        let pdf = Array("%PDF-1.4\n".utf8) + Self.noise(200)
        let document = try await harness.run(["ask", "summarize"], stdin: pdf)
        #expect(document.status == 0, "\(document.stderr)")
        let file = try JSONValue.parse(try #require(harness.server.requests.last?.body))["input"]?[0]?["content"]?[1]
        #expect(file?["type"] == "input_file" && file?["filename"] == "stdin.pdf")
        #expect(file?["file_data"]?.stringValue?.hasPrefix("data:application/pdf;base64,JVBERi0xLjQK") == true)
        // Not checked with SpecValidation: OpenAI's schema lists a user message with content parts under both
        // EasyInputMessage and InputMessage of a oneOf, so any such body is "valid under each of" them.
    }

    /// 40 MB of text: refused before anything is sent, with its estimated tokens, the limit and its cost;
    /// a lower limit set in config.yaml is the one applied; `--allow-large-input` sends it whole.
    @Test func textOverTheLimitIsRefusedWithItsTokensUnlessAllowed() async throws {
        let harness = try await ConsoleHarness.start(route: Self.echo)
        defer { harness.close() }
        let large = [UInt8](repeating: UInt8(ascii: "a"), count: 40_000_000)
        let refused = try await harness.run(["ask", "--model", "gpt-4.1-mini", "what is this"], stdin: large)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "stdin: 38.1 MB of text, about 10,000,000 tokens (at 4 bytes a token), over the limit of 523,788 "
                    + "(half of gpt-4.1-mini's 1,047,576-token context window); its input alone would cost about $4.00: "
                    + "nothing was sent"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: pass --allow-large-input"), "\(refused.stderr)")
        #expect(harness.server.requests.isEmpty, "the server saw a request")

        try "version: 1\nconsole:\n  max_input_tokens: 100\n".write(
            to: harness.home.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let small = [UInt8](repeating: UInt8(ascii: "b"), count: 404) + [0x0A]
        let limited = try await harness.run(["ask", "count"], stdin: small)
        #expect(limited.status == 2)
        #expect(limited.stderr.contains("about 102 tokens") && limited.stderr.contains("(console.max_input_tokens)"))
        #expect(harness.server.requests.isEmpty)

        let allowed = try await harness.run(["ask", "--allow-large-input", "count"], stdin: small)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let sent = try JSONValue.parse(try #require(harness.server.requests.last?.body))
        #expect(sent["input"]?.stringValue == "count\n\n" + String(repeating: "b", count: 404))
    }
}
