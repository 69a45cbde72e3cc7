import Foundation
import ResponsesAPI
import Testing

@testable import Workbench

/// Issue 49: piped bytes classified by their content (never by a name they do not have), and text measured
/// against the input limit before it is decoded.
@Suite("piped input")
struct PipedInputTests {
    static func kind(_ bytes: [UInt8]) -> String {
        switch try? PipedInput.classify(Data(bytes)) {
        case .file(let file)?: file.mediaType
        case .text?: "text"
        case nil: "refused"
        }
    }

    @Test func filesAreRecognisedByTheirFirstBytes() {
        #expect(Self.kind([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == "image/png")
        #expect(Self.kind([0xFF, 0xD8, 0xFF, 0xE0, 0]) == "image/jpeg")
        #expect(Self.kind(Array("GIF89a".utf8) + [0]) == "image/gif")
        #expect(Self.kind(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)) == "image/webp")
        #expect(Self.kind(Array("%PDF-1.7\n".utf8) + [0xFF]) == "application/pdf")
        #expect(Self.kind(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8) + [0]) == "refused")
        #expect(Self.kind(Array("plain text, PNG later: \u{89}PNG".utf8)) == "text")
    }

    @Test func textIsValidUTF8WithoutNUL() throws {
        #expect(try PipedInput.classify(Data("héllo ✓\n".utf8)) == .text("héllo ✓\n"))
        #expect(Self.kind(Array("nul\u{0}inside".utf8)) == "refused")
        #expect(Self.kind([0x68, 0x69, 0xC3]) == "refused", "a cut sequence at the end")
        // Valid for the first 64 KB, invalid after: still refused (the whole is decoded before it is sent).
        #expect(Self.kind([UInt8](repeating: 0x61, count: 70_000) + [0xFF]) == "refused")
        // A scalar cut by the 64 KB sample is not taken for invalid UTF-8.
        let cut = [UInt8](repeating: 0x61, count: 65_535) + Array("é and more".utf8)
        #expect(Self.kind(cut) == "text")
    }

    @Test func refusalsNameTheSizeAndTheKind() {
        #expect(throws: InputRefusal.self) { try PipedInput.classify(Data([0x1F, 0x8B, 8, 0, 0xFF])) }
        do {
            _ = try PipedInput.classify(Data([0x7F, 0x45, 0x4C, 0x46, 0, 0xFF]))
            Issue.record("an ELF file was taken")
        } catch {
            #expect(error.userMessage.hasPrefix("stdin: 6 bytes of ELF executable (not UTF-8 text"))
        }
        do {
            _ = try PipedInput.classify(
                Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 2048)), inlineLimit: 1024)
            Issue.record("an image over the inline limit was taken")
        } catch {
            #expect(error.userMessage.contains("stdin: 2.0 KB JPEG image, over the 1.0 KB that go inline"))
        }
    }

    /// The size check runs before the text is decoded, and only on text.
    @Test func theTextCheckSeesTheByteCountFirst() {
        var seen: [Int] = []
        let check: (Int) throws(InputRefusal) -> Void = { (count: Int) throws(InputRefusal) in
            seen.append(count)
            throw InputRefusal("too long")
        }
        #expect(throws: InputRefusal("too long")) { try PipedInput.classify(Data("abc".utf8), checkText: check) }
        #expect(seen == [3])
        _ = try? PipedInput.classify(Data([0x25, 0x50, 0x44, 0x46, 0x2D]), checkText: check)
        #expect(seen == [3], "a PDF is not text")
    }

    @Test func theLimitComesFromTheSettingTheWindowOrTheDefault() throws {
        let window = InputGuard(setting: nil, model: "gpt-4o", contextWindow: 128_000)
        #expect(window.limit == 64_000 && window.origin == "half of gpt-4o's 128,000-token context window")
        #expect(InputGuard(setting: 500, model: "gpt-4o", contextWindow: 128_000).limit == 500)
        #expect(InputGuard(setting: 0, model: "gpt-4o", contextWindow: 128_000).limit == nil)
        #expect(InputGuard(setting: nil, model: "local", contextWindow: nil).limit == InputGuard.unknownModelLimit)

        let guardrail = InputGuard(setting: 100, model: "m", contextWindow: nil)
        try guardrail.check(byteCount: 400, source: "stdin", pricePerMillion: 2)
        #expect(throws: InputRefusal.self) { try guardrail.check(byteCount: 401, source: "stdin", pricePerMillion: 2) }
        try InputGuard(setting: 0, model: "m", contextWindow: nil).check(
            byteCount: 1 << 40, source: "stdin", pricePerMillion: nil)
        #expect(1_234_567.grouped == "1,234,567" && 999.grouped == "999" && (-1000).grouped == "-1,000")
    }
}
