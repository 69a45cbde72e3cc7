import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// The project's own fixtures carry every event type the API defines, so the typed decoding means
/// something without ../shared too.
@Suite("Every event family")
struct EventFamilyTests {
    static let fixtures = [
        "stream-every-event.sse", "stream-hello.sse", "stream-incomplete.sse", "stream-error-then-failed.sse",
    ]

    static func events(_ name: String) throws -> [ResponseStreamEvent] {
        try decodeSSE(Fixtures.text(name)).map { try ResponseStreamEvent($0) }
    }

    @Test func fixturesCoverAllFiftyEightTypesAndEachIsTyped() throws {
        var seen: Set<String> = []
        for name in Self.fixtures {
            for event in try Self.events(name) {
                seen.insert(event.type)
                if ResponseStreamEvent.knownTypes.contains(event.type) {
                    #expect(event.kind != .unknown, "\(event.type) decoded as unknown")
                } else {
                    #expect(event.kind == .unknown, "\(event.type) is not an API type")
                }
            }
        }
        #expect(ResponseStreamEvent.knownTypes.count == 58)
        #expect(
            Set(ResponseStreamEvent.knownTypes).subtracting(seen).isEmpty,
            "not covered: \(Set(ResponseStreamEvent.knownTypes).subtracting(seen).sorted())")
    }

    @Test func typedPayloads() throws {
        let events = try Self.events("stream-every-event.sse")
        func first<T>(_ extract: (ResponseStreamEvent.Kind) -> T?) -> T? {
            events.compactMap { extract($0.kind) }.first
        }

        let queued: ResponseStatus? = first { kind -> ResponseStatus? in
            if case .responseQueued(let response) = kind { return response.status }
            return nil
        }
        #expect(queued == .queued)
        let annotations = events.compactMap {
            if case .outputTextAnnotationAdded(let a) = $0.kind { a.annotation } else { nil }
        }
        #expect(
            annotations == [
                .fileCitation(fileID: "file-abc", filename: "cats.pdf", index: 10),
                .urlCitation(url: "https://example.org/cats", title: "Cats", startIndex: 0, endIndex: 4),
                .containerFileCitation(
                    containerID: "cntr_1", fileID: "cfile_1", filename: "plot.png", startIndex: 5, endIndex: 9),
                .filePath(fileID: "file-out", index: 3),
            ])
        let argumentsDone = first { if case .functionCallArgumentsDone(let d) = $0 { d } else { nil } }
        #expect(argumentsDone?.text == #"{"city":"Paris"}"#)
        #expect(argumentsDone?.name == nil)  // as recorded: the name comes from the item
        let statuses = events.compactMap {
            if case .toolCallStatus(let s) = $0.kind { "\(s.tool.rawValue).\(s.phase)" } else { nil }
        }
        #expect(statuses.contains("file_search_call.searching"))
        #expect(statuses.contains("code_interpreter_call.interpreting"))
        #expect(statuses.contains("image_generation_call.generating"))
        #expect(statuses.contains("mcp_list_tools.failed"))
        #expect(statuses.count == 18)
        let partial = first { if case .imageGenerationPartialImage(let p) = $0 { p } else { nil } }
        #expect(partial?.base64 == "iVBORw0KGgo=")
        #expect(partial?.outputFormat == "png")
        let shell = events.compactMap { if case .shellCallCommandDelta(let c) = $0.kind { c.text } else { nil } }
        #expect(shell == ["ls"])
        #expect(
            first { if case .error(let e) = $0 { e } else { nil } }
                == StreamErrorPayload(code: "rate_limit_exceeded", message: "Slow down"))
        let reasoning = events.compactMap {
            if case .reasoningSummaryTextDelta(let d) = $0.kind { d.delta } else { nil }
        }.joined()
        #expect(reasoning == "Thinking about cats.")
        let refusal = events.compactMap { if case .refusalDelta(let d) = $0.kind { d.delta } else { nil } }.joined()
        #expect(refusal == "I can't help with that.")
    }

    @Test func everyOutputItemTypeIsTyped() throws {
        let final = try #require(try Self.events("stream-every-event.sse").last?.finalResponse)
        let items = final.output
        #expect(items.allSatisfy { if case .unknown = $0 { false } else { true } })
        for type in OutputItem.knownTypes {
            let item = OutputItem(json: ["type": .string(type), "id": "x"])
            if case .unknown = item { Issue.record("\(type) decoded as unknown") }
            #expect(item.type == type)
        }
        #expect(OutputItem.knownTypes.count == 28)
        if case .unknown = OutputItem(json: ["type": "hologram_call"]) {
        } else {
            Issue.record("an unknown item type must stay unknown")
        }

        try #require(items.count >= 12, "\(items.map(\.type))")
        guard case .reasoning(let reasoning) = items[0], case .message(let message) = items[1],
            case .message(let refusal) = items[2], case .functionCall(let call) = items[3],
            case .customToolCall(let custom) = items[4], case .fileSearchCall(let search) = items[5],
            case .webSearchCall(let web) = items[6], case .codeInterpreterCall(let code) = items[7],
            case .imageGenerationCall(let image) = items[8], case .mcpListTools(let list) = items[9],
            case .mcpCall(let mcp) = items[10], case .mcpApprovalRequest(let approval) = items[11]
        else {
            Issue.record("items in the wrong order: \(items.map(\.type))")
            return
        }
        #expect(reasoning.summary == ["Thinking about cats."])
        #expect(reasoning.reasoningText == ["raw thought"])
        #expect(message.text == "Cats purr [1].")
        #expect(refusal.refusal == "I can't help with that.")
        #expect(call.name == "get_weather" && call.callID == "call_1")
        #expect(custom.input == "SELECT 1")
        #expect(search.queries == ["cats purr"])
        #expect(search.results.first?.filename == "cats.pdf")
        #expect(search.results.first?.score == 0.93)
        #expect(web.query == "why do cats purr")
        #expect(web.sources == ["https://example.org/cats"])
        #expect(code.logs == "4\n")
        #expect(image.result == "iVBORw0KGgo=")
        #expect(list.toolNames == ["search"])
        #expect(mcp.output == "3 results")
        #expect(approval.name == "delete")
        #expect(
            final.usage
                == Usage(
                    inputTokens: 100, cachedInputTokens: 20, outputTokens: 50, reasoningTokens: 12, totalTokens: 150))
    }

    @Test func accumulatorRebuildsTheFinalOutputAndKeepsPartialOutput() throws {
        let events = try Self.events("stream-every-event.sse")
        let final = try #require(events.last?.finalResponse)
        var accumulator = ResponseAccumulator()
        for event in events.dropLast() { accumulator.apply(event) }
        #expect(accumulator.rebuilt.output == final.output)
        #expect(accumulator.outputText == "Cats purr [1].")

        // Cut in the middle of the message: the partial text is in the rebuilt output.
        var partial = ResponseAccumulator()
        let cut = try #require(events.firstIndex { $0.type == "response.output_text.annotation.added" })
        for event in events[..<cut] { partial.apply(event) }
        #expect(partial.rebuilt.outputText == "Cats purr")
        #expect(partial.rebuilt.output.count == 2)
        #expect(partial.final == nil)
    }

    @Test func unknownEventAndFieldsAreKeptWhole() throws {
        let events = try Self.events("stream-every-event.sse")
        let unknown = try #require(events.first { $0.type == "response.future_feature.delta" })
        #expect(unknown.kind == .unknown)
        #expect(unknown.json["delta"] == "?")
        let delta = try #require(events.first { $0.type == "response.output_text.delta" })
        #expect(delta.json["obfuscation"] == "ab")
    }

    @Test func doneMarkerAndMissingSequenceNumber() throws {
        let events = decodeSSE("data: {\"type\":\"response.output_text.delta\",\"delta\":\"x\"}\n\ndata: [DONE]\n\n")
            .map { try? ResponseStreamEvent($0) }
        try #require(events.count == 2)
        #expect(events[0]?.sequenceNumber == nil)
        #expect(events[0]?.type == "response.output_text.delta")
        #expect(events[1]?.kind == .done)
    }
}
