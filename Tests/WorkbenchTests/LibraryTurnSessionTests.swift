import Foundation
import Library
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// A library turn goes through the session like every other turn: the augmenter's input is what
/// `PayloadBuilder` composes and the server receives, its notes reach the delegate, the answer's markers
/// come back as footnotes, and `/retry` sends the same input again without searching again.
@Suite("Library turns through the session")
struct LibraryTurnSessionTests {
    /// A library of one document, in a folder of its own.
    static func library() async throws -> (folder: URL, open: @Sendable () throws -> LibraryService) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "library-turn-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let note = folder.appendingPathComponent("quokka.txt")
        try "Quokkas live on Rottnest Island.".write(to: note, atomically: true, encoding: .utf8)
        var chosen = LibraryOptions()
        chosen.embedder = EmbedderSpec.none
        let options = chosen
        let path = folder.appendingPathComponent("library.sqlite").path
        let open: @Sendable () throws -> LibraryService = {
            try LibraryService.open(at: path, options: options, dataDirectory: folder)
        }
        let service = try open()
        _ = try await service.add(try await service.planAdding([note.path], relativeTo: folder))
        return (folder, open)
    }

    /// Counts the searches an augmenter makes.
    struct CountingAugmenter: TurnAugmenter {
        let base: LibraryAugmenter
        let searches = Counter()
        func augment(_ text: String) async throws -> TurnAugmentation {
            _ = searches.next()
            return try await base.augment(text)
        }
    }

    @Test func thePassagesAreSentAndTheMarkersComeBackAsFootnotes() async throws {
        let (folder, open) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LoopbackServer.start { _ in
            .sse(Fixtures.textStream(id: "resp_1", text: "On Rottnest Island [1]."))
        }
        var session = ChatSessionHarness.session(server: server)
        let augmenter = CountingAugmenter(base: LibraryAugmenter(open: open))
        session.augmenter = augmenter
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: false)
        let outcome = await session.send("where do quokkas live", renderer: &renderer, delegate: delegate)
        #expect(outcome.error == nil)
        let sent = try #require(server.requests.first?.jsonBody?["input"] as? String)
        #expect(sent.contains("[1]") && sent.contains("Quokkas live on Rottnest Island."))
        #expect(sent.contains("where do quokkas live"))
        #expect(outcome.footnotes.contains("[1]") && outcome.footnotes.contains("quokka.txt"))
        #expect(outcome.sources.map(\.text) == ["Quokkas live on Rottnest Island."])
        // /retry: the same input, not searched again.
        _ = await session.retry(renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.jsonBody?["input"] as? String == sent)
        #expect(augmenter.searches.next() == 2)
    }

    @Test func nothingMatchingSendsTheQuestionAloneAndSaysSo() async throws {
        let (folder, open) = try await Self.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LoopbackServer.start { _ in .sse(Fixtures.textStream(id: "resp_1", text: "No idea [1]."))
        }
        var session = ChatSessionHarness.session(server: server)
        session.augmenter = LibraryAugmenter(open: open)
        var renderer = TextRenderer()
        let delegate = RecordingDelegate(answer: false)
        let outcome = await session.send("volcanoes", renderer: &renderer, delegate: delegate)
        await server.stop()
        #expect(server.requests.first?.jsonBody?["input"] as? String == "volcanoes")
        #expect(outcome.footnotes == "")
        #expect(
            delegate.events.contains {
                if case .note(let text) = $0 { text.contains("nothing in the library matches") } else { false }
            })
    }

    @Test func aLibraryThatCannotBeSearchedRefusesTheTurnBeforeAnythingIsSent() async throws {
        let server = try await LoopbackServer.start { _ in .sse(Fixtures.textStream(id: "resp_1", text: "x")) }
        var session = ChatSessionHarness.session(server: server)
        session.augmenter = LibraryAugmenter { throw LibraryServiceError("cannot open the library /nowhere") }
        var renderer = TextRenderer()
        let outcome = await session.send("anything", renderer: &renderer, delegate: RecordingDelegate(answer: false))
        await server.stop()
        #expect(server.requests.isEmpty)
        #expect(outcome.error?.code == .configuration)
        #expect(outcome.error?.message == "cannot open the library /nowhere")
        #expect(session.conversation.lastTurn == nil && session.conversation.history.isEmpty)
    }
}
