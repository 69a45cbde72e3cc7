import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Every real recording in ../shared/conformance/sse (`*.sse`, and `*.chunks.txt` turned into SSE) decodes
/// with no error under every perturbation a compatible server or proxy may introduce, gives the same events
/// each time, and the text rebuilt from its deltas equals the terminal response's output text. Skipped
/// when ../shared is absent (the project's own fixtures cover every event family in `EventFamilyTests`).
/// One test and one recording at a time (`.serialized`): each case decodes its file nine times, about half a
/// minute of work in all in the debug build; run in parallel, the cases held both of the concurrency pool's
/// threads that long and every other test in the process waited.
@Suite(
    "Conformance recordings", .serialized,
    .enabled(if: Fixtures.conformanceDirectory != nil, "../shared/conformance is absent"))
struct ConformanceRecordingsTests {
    /// The recordings' names. Throws when the folder is there but cannot be listed or holds none, so a
    /// parameterised test never runs zero cases and passes: Swift Testing reports the error as a failure.
    static var recordings: [String] {
        get throws {
            // Absent: the suite is reported as skipped (its trait), whatever this returns.
            guard let directory = Fixtures.conformanceDirectory?.appendingPathComponent("sse") else { return [] }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".sse") || $0.hasSuffix(".chunks.txt") }.sorted()
            guard !names.isEmpty else { throw NoRecordings(directory: directory.path) }
            return names
        }
    }

    struct NoRecordings: Error, CustomStringConvertible {
        var directory: String
        var description: String { "no recordings (*.sse, *.chunks.txt) in \(directory)" }
    }

    static func bytes(of name: String) throws -> [UInt8] {
        let url = try #require(Fixtures.conformanceDirectory).appendingPathComponent("sse").appendingPathComponent(name)
        let raw = Array(try Data(contentsOf: url))
        return name.hasSuffix(".chunks.txt") ? SSEPerturbation.framesFromChunkLines(raw) : raw
    }

    @Test("decodes identically under every perturbation", arguments: try recordings)
    func recording(_ name: String) throws {
        let original = try Self.bytes(of: name)
        let reference = try Self.decode(original, chunkSize: 0).filter { $0.kind != .done }
        #expect(!reference.isEmpty, "no events in \(name)")
        for perturbation in SSEPerturbation.allCases {
            let bytes = perturbation.apply(to: original)
            let events = try Self.decode(bytes, chunkSize: perturbation == .oneBytePerChunk ? 1 : 0)
            let withoutDone = events.filter { $0.kind != .done }
            #expect(withoutDone.map(\.json) == reference.map(\.json), "\(name) under \(perturbation)")
            if perturbation == .trailingDone { #expect(events.last?.kind == .done) }
        }
        // The text rebuilt from the deltas equals the terminal response's, for each response in the file.
        guard !Self.editedCaptures.contains(where: name.hasPrefix) else { return }
        for segment in Self.responses(in: reference) {
            // An excerpt or a resumed stream lacks the deltas of what came before it.
            guard let final = segment.finalResponse, !final.output.isEmpty, segment.contains(where: Self.isCreated)
            else { continue }
            #expect(segment.deltaText == final.outputText, "\(name)")
        }
    }

    /// Captures whose deltas were cut or rewritten by whoever saved them (sse/PROVENANCE.txt, QUALITY NOTES):
    /// they cannot rebuild their final text, whatever the decoder does. Everything else is checked on them.
    static let editedCaptures = [
        "vercel-azure-reasoning-encrypted-content.1", "vercel-openai-reasoning-encrypted-content.1",
        "vercel-openai-phase.1", "vercel-openai-shell-tool.1", "vercel-azure-gpt5-reasoning-multi-summary",
        // Not listed there, but its four deltas say "The command ran successfully." and its final text is longer.
        "vercel-openai-shell-container.1",
    ]

    /// A capture may hold several responses one after another (multi-turn tests): split after each terminal event.
    static func responses(in events: [ResponseStreamEvent]) -> [[ResponseStreamEvent]] {
        var segments: [[ResponseStreamEvent]] = [[]]
        for event in events {
            segments[segments.count - 1].append(event)
            if event.isTerminal { segments.append([]) }
        }
        return segments.filter { !$0.isEmpty }
    }

    @Test("the response rebuilt from the events equals the terminal event's", arguments: try recordings)
    func accumulation(_ name: String) throws {
        let events = try Self.decode(try Self.bytes(of: name), chunkSize: 0)
        var rebuiltSegments = 0
        for segment in Self.responses(in: events) {
            guard let final = segment.finalResponse,
                segment.contains(where: Self.isCreated)
            else { continue }  // a resumed or cut recording has nothing to rebuild from
            rebuiltSegments += 1
            var accumulator = ResponseAccumulator()
            for event in segment where !event.isTerminal { accumulator.apply(event) }
            let rebuilt = accumulator.rebuilt
            #expect(rebuilt.output.map(\.type) == final.output.map(\.type), "\(name)")
            // GitHub Copilot's proxy gives every event a new response id (the file is named for that).
            if !name.hasPrefix("vercel-github-copilot-id-rotation") { #expect(rebuilt.id == final.id, "\(name)") }
            if !Self.editedCaptures.contains(where: name.hasPrefix) {
                #expect(rebuilt.outputText == final.outputText, "\(name)")
            }
        }
        // Every recording is checked here, except those known to hold no whole response: then that is checked.
        let known = Self.withoutAWholeResponse.contains(where: name.hasPrefix)
        #expect((rebuiltSegments > 0) != known, "\(name): \(rebuiltSegments) whole responses")
    }

    /// Recordings without a response from its `response.created` to its terminal event: an excerpt, streams
    /// resumed part-way (`starting_after`), and a stream that ends in an error event.
    static let withoutAWholeResponse = [
        "capture-incomplete-terminal-frame.excerpt", "dotnet-can-stream-background-responses.2",
        "pydantic-background-mode-streaming-starting-after.2", "vercel-openai-error-null-code.1",
    ]

    @Test("every event type, item type and annotation in the recordings is typed")
    func everythingRecordedIsTyped() throws {
        var unknownEvents: Set<String> = []
        var unknownItems: Set<String> = []
        let recordings = try Self.recordings
        try #require(!recordings.isEmpty)
        for name in recordings {
            for event in try Self.decode(try Self.bytes(of: name), chunkSize: 0) {
                if event.kind == .unknown { unknownEvents.insert(event.type) }
                var items: [OutputItem] = []
                if case .outputItemDone(let done) = event.kind { items.append(done.item) }
                items += event.response?.output ?? []
                for item in items {
                    if case .unknown = item { unknownItems.insert(item.type) }
                    if case .message(let message) = item {
                        for case .outputText(let part) in message.content {
                            for case .unknown(let type, _) in part.annotations {
                                unknownItems.insert("annotation " + type)
                            }
                        }
                    }
                }
            }
        }
        // apply_patch diff events are on the wire but in no published union: they stay unknown, harmlessly.
        #expect(
            unknownEvents.subtracting([
                "response.apply_patch_call_operation_diff.delta", "response.apply_patch_call_operation_diff.done",
            ]).isEmpty,
            "untyped events: \(unknownEvents.sorted())")
        #expect(unknownItems.isEmpty, "untyped items: \(unknownItems.sorted())")
    }

    static func isCreated(_ event: ResponseStreamEvent) -> Bool {
        if case .responseCreated = event.kind { return true }
        return false
    }

    static func decode(_ bytes: [UInt8], chunkSize: Int) throws -> [ResponseStreamEvent] {
        try decodeSSE(bytes, chunkSize: chunkSize).map { try ResponseStreamEvent($0) }
    }
}

/// Ways a stream's bytes may differ from OpenAI's and still mean the same events.
enum SSEPerturbation: String, CaseIterable, CustomTestStringConvertible {
    case crlf, cr, oneBytePerChunk, commentsBetweenEvents, noEventLines, trailingDone, multiLineData

    var testDescription: String { rawValue }

    func apply(to bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        switch self {
        case .crlf: return Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .cr: return Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
        case .oneBytePerChunk: return bytes
        case .commentsBetweenEvents:
            return Array((": keep-alive\n\n" + text.replacingOccurrences(of: "\n\n", with: "\n\n: ping\n\n")).utf8)
        case .noEventLines:
            return Array(
                text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("event:") }.joined(separator: "\n").utf8)
        case .trailingDone:
            return Array((text.hasSuffix("\n\n") ? text : text + "\n\n").utf8) + Array("data: [DONE]\n\n".utf8)
        case .multiLineData:
            return Array(
                text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                    guard line.hasPrefix("data: ") else { return String(line) }
                    return Self.splitData(String(line.dropFirst(6)))
                }.joined(separator: "\n").utf8)
        }
    }

    /// `data: a,` / `data: b` ...: the JSON split after commas outside strings, so that joining the lines
    /// with LF (as the rules say) gives the same JSON with whitespace added.
    static func splitData(_ json: String) -> String {
        var lines: [String] = []
        var current = ""
        var inString = false
        var escaped = false
        var commas = 0
        for character in json {
            current.append(character)
            if escaped {
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = inString
                continue
            }
            if character == "\"" {
                inString.toggle()
                continue
            }
            if character == ",", !inString {
                commas += 1
                if commas % 3 == 0 {
                    lines.append(current)
                    current = ""
                }
            }
        }
        lines.append(current)
        return lines.map { "data: " + $0 }.joined(separator: "\n")
    }

    /// A `.chunks.txt` capture holds one event's JSON per line: frame each as OpenAI does.
    static func framesFromChunkLines(_ bytes: [UInt8]) -> [UInt8] {
        var out = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let type = (try? JSONValue.parse(Array(line.utf8)))?["type"]?.stringValue ?? "message"
            out += "event: \(type)\ndata: \(line)\n\n"
        }
        return Array(out.utf8)
    }
}
