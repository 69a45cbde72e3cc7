import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The stream rules accept every stream OpenAI was recorded sending (../shared/conformance/sse): each
/// response of a recording (a capture may hold several, one after another) is checked, from its first
/// event to its terminal one. Recordings that are not OpenAI's own streams as sent are named with why
/// (sse/PROVENANCE.txt, QUALITY NOTES), and each of them must still be in the folder. Skipped when
/// ../shared is absent.
@Suite(
    "Stream rules on OpenAI's recordings", .serialized,
    .enabled(if: Fixtures.conformanceDirectory != nil, "../shared/conformance is absent"))
struct StreamRulesRecordingsTests {
    /// Not a stream OpenAI sent as it was sent: another server, made by hand, or cut by whoever saved it.
    static let notOpenAIs: [String: String] = [
        "pydantic-raw-cot-stream-openrouter.1": "OpenRouter, not OpenAI",
        "vercel-github-copilot-id-rotation.1": "GitHub Copilot's proxy",
        "vercel-openai-custom-tool.1": "made by hand (no sequence_number)",
        "vercel-openai-apply-patch-tool-delete.1": "made by hand",
        "vercel-openai-response-failed-only.1": "made by hand",
        "vercel-azure-gpt5-reasoning-multi-summary-no-encryption": "made by hand",
        "vercel-azure-gpt5-reasoning-multi-summary-with-encryption": "made by hand",
        // PROVENANCE.txt names three more as cut by vercel; the rules find them whole, so they are checked.
        "vercel-openai-phase.1": "deltas cut by vercel (sequence_number gaps)",
    ]

    /// Streams that start part-way: an excerpt, streams resumed with `starting_after`, a lone error event.
    static let resumed = [
        "capture-incomplete-terminal-frame.excerpt", "dotnet-can-stream-background-responses.2",
        "pydantic-background-mode-streaming-starting-after.2", "vercel-openai-error-null-code.1",
    ]

    /// OpenAI's streams of March 2025, before `sequence_number`.
    static let beforeSequenceNumbers = ["pydantic-stream.1", "pydantic-stream.2"]

    static func base(_ name: String) -> String {
        name.replacingOccurrences(of: ".chunks.txt", with: "").replacingOccurrences(of: ".sse", with: "")
    }

    @Test("OpenAI's recorded streams follow the rules", arguments: try ConformanceRecordingsTests.recordings)
    func recording(_ name: String) throws {
        let base = Self.base(name)
        guard Self.notOpenAIs[base] == nil else { return }
        let events = try ConformanceRecordingsTests.decode(
            try ConformanceRecordingsTests.bytes(of: name), chunkSize: 0)
        let rules = StreamRules(
            start: Self.resumed.contains(base) ? .resumed : .fresh,
            allowsStreamsWithoutSequenceNumbers: Self.beforeSequenceNumbers.contains(base))
        let responses = ConformanceRecordingsTests.responses(in: events)
        try #require(!responses.isEmpty, "\(name) holds no events")
        for (index, response) in responses.enumerated() {
            let difference = rules.firstDifference(response)
            #expect(difference == nil, "\(name), response \(index + 1): \(difference?.description ?? "")")
        }
    }

    @Test func everyRecordingLeftOutIsThere() throws {
        let names = Set(try ConformanceRecordingsTests.recordings.map(Self.base))
        for name in Array(Self.notOpenAIs.keys) + Self.resumed + Self.beforeSequenceNumbers {
            #expect(names.contains(name), "\(name) is not among the recordings")
        }
        #expect(names.count - Self.notOpenAIs.count >= 60, "most recordings are checked")
    }

    /// The recording left out as cut is left out for a reason the rules see: its gap.
    @Test func theCutRecordingsAreRejected() throws {
        for name in try ConformanceRecordingsTests.recordings
        where Self.notOpenAIs[Self.base(name)]?.hasPrefix("deltas cut") == true {
            let events = try ConformanceRecordingsTests.decode(
                try ConformanceRecordingsTests.bytes(of: name), chunkSize: 0)
            let differences = ConformanceRecordingsTests.responses(in: events).compactMap {
                StreamRules().firstDifference($0)
            }
            #expect(
                differences.map(\.description) == [
                    "event 7 `response.output_text.done`: `sequence_number` 41 after 5 (expected 6)"
                ], "\(name)")
        }
    }
}
