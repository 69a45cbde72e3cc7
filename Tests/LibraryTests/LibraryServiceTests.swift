import Foundation
import Library
import ResponsesAPI
import Synchronization
import TestSupport
import Testing

/// The library's policies as `LibraryService` decides them, without a terminal or a binary: which embedder
/// runs (the built-in model found in one place, a server's client asked of the front end), adding as
/// ingest-then-embed, a failed document not stopping the others, and a library turn's input and footnotes.
@Suite("The library service")
struct LibraryServiceTests {
    let files: LibraryFixtures
    let data: URL

    init() throws {
        files = try LibraryFixtures()
        data = files.folder.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    /// Records which servers a provider embedder asked a client for.
    final class RecordingClients: EmbeddingClients {
        /// One transport for the clients handed out (never used to send here), living as long as the process.
        static let transport = AsyncHTTPClientTransport(
            configuration: Configuration(baseURL: "http://127.0.0.1:9", apiKey: nil))
        let asked = Mutex<[String?]>([])
        let finished = Mutex(0)
        func client(for server: String?) async throws -> ResponsesClient {
            asked.withLock { $0.append(server) }
            return ResponsesClient(
                configuration: Configuration(baseURL: "http://127.0.0.1:9", apiKey: "sk-x"), transport: Self.transport)
        }
        func finish() async { finished.withLock { $0 += 1 } }
    }

    func service(_ options: LibraryOptions = LibraryOptions(), clients: RecordingClients? = nil) throws
        -> LibraryService
    {
        try LibraryService.open(
            at: data.appendingPathComponent("library.sqlite").path, options: options, dataDirectory: data,
            clients: clients)
    }

    @Test func theBuiltInModelIsLookedForInOnePlaceAndItsAbsenceSaysWhereAndHow() async throws {
        defer { files.remove() }
        let service = try service()
        let folder = data.appendingPathComponent("models/all-MiniLM-L6-v2").path
        #expect(service.modelFolder == folder)
        #expect(!service.modelInstalled)
        let error = await #expect(throws: LibraryServiceError.self) { try await service.embedder(.minilm) }
        #expect(
            error?.message == "all-MiniLM-L6-v2 is not installed in \(folder) (scripts/install-model.sh installs it)")
        #expect(error?.exitStatus == .usage)
        var moved = LibraryOptions()
        moved.modelDirectory = "/elsewhere/minilm"
        #expect(try self.service(moved).modelFolder == "/elsewhere/minilm")
    }

    @Test func aServersEmbedderAsksTheFrontEndForItsProvidersClient() async throws {
        defer { files.remove() }
        let clients = RecordingClients()
        let service = try service(clients: clients)
        let named = try await service.embedder(.provider(model: "e", dimensions: 8, server: "beta"))
        let own = try await service.embedder(.provider(model: "e", dimensions: nil, server: nil))
        #expect(clients.asked.withLock { $0 } == ["beta", nil])
        #expect((named as? ProviderEmbedder)?.dimensions == 8)
        #expect((own as? ProviderEmbedder)?.model == "e")
        await service.finish()
        #expect(clients.finished.withLock { $0 } == 1)
        // Without a front end's clients, a server's embedder cannot run: a usage error that says what it needs.
        let alone = try self.service()
        let error = await #expect(throws: LibraryServiceError.self) {
            try await alone.embedder(.provider(model: "e", dimensions: nil, server: nil))
        }
        #expect(error?.message.contains("needs the server's configuration") == true)
        #expect(try await alone.embedder(.none) == nil)
    }

    @Test func askingForAnotherEmbedderThanTheLibrarysIsRefusedBeforeAnythingIsAdded() async throws {
        defer { files.remove() }
        let first = try service()
        try await first.store.setEmbedder("minilm")
        var options = LibraryOptions()
        options.embedder = .provider(model: "text-embedding-3-small", dimensions: nil, server: nil)
        let service = try service(options)
        let note = try files.write("note.txt", "A note that must not be added.")
        let error = await #expect(throws: LibraryServiceError.self) {
            _ = try await service.planAdding([note.path], relativeTo: files.folder)
        }
        #expect(error?.exitStatus == .usage)
        #expect(error?.message.contains("library reembed --embedder openai:text-embedding-3-small") == true)
        #expect(try await service.store.documents().isEmpty)
        // `none` is always allowed (nothing is embedded), and with nothing asked the library's own is used.
        options.embedder = EmbedderSpec.none
        #expect(try await self.service(options).embedderForAdding() == EmbedderSpec.none)
        #expect(try await first.embedderForAdding() == .minilm)
    }

    @Test func addingWithoutTheModelKeepsTheDocumentsAndSaysWhyNothingWasEmbedded() async throws {
        defer { files.remove() }
        let service = try service()
        let good = try files.write("good.txt", "Quokkas live on Rottnest Island.")
        let broken = try files.write("broken.pdf", Data("%PDF-1.4 not really".utf8))
        let plan = try await service.planAdding(
            [good.path, broken.path, files.folder.appendingPathComponent("gone.txt").path], relativeTo: files.folder)
        #expect(plan.selection.missing.count == 1)
        #expect(plan.embedder == .minilm)
        let result = try await service.add(plan)
        #expect(result.outcomes.count == 2)
        #expect(result.failed)
        #expect(!result.interrupted)
        guard case .success(.unavailable(let reason))? = result.embedding else {
            Issue.record("expected the embedder to be unavailable: \(String(describing: result.embedding))")
            return
        }
        #expect(reason.contains("all-MiniLM-L6-v2 is not installed"))
        #expect(try await service.store.documents().filter { $0.status == .indexed }.map(\.path) == [good.path])
        // Search says why it ranks by keywords only, and still finds the passage.
        let found = try await service.search("quokkas", k: 3)
        #expect(found.hits.first?.path == good.path)
        #expect(found.notice?.contains("semantic search needs all-MiniLM-L6-v2") == true)
    }

    @Test(.enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
    func addingWithTheModelEmbedsWhatWasAddedAndSearchRanksByMeaning() async throws {
        defer { files.remove() }
        var options = LibraryOptions()
        options.modelDirectory = try #require(InstalledModel.minilm)
        let service = try service(options)
        let cats = try files.write("cats.txt", "Felines purr when they are content and sleep most of the day.")
        let rivers = try files.write("rivers.txt", "The river floods the valley every spring after the snow melts.")
        let result = try await service.add(
            try await service.planAdding([cats.path, rivers.path], relativeTo: files.folder))
        guard case .success(.embedded(let count, _))? = result.embedding else {
            Issue.record("expected passages embedded: \(String(describing: result.embedding))")
            return
        }
        #expect(count == 2)
        #expect(try await service.currentEmbedder() == .minilm)
        // No word in common with the question: found by meaning.
        let found = try await service.search("my kitten naps all afternoon", k: 1)
        #expect(found.mode == .hybrid)
        #expect(found.hits.first?.path == cats.path)
    }
}
