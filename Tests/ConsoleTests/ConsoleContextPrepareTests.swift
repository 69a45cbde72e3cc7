import Foundation
import GRDB
import TestSupport
import Testing
import Workbench

@testable import Console
@testable import Inspector

/// `ConsoleContext.prepare`: the inspector's store begins opening before the command line is parsed, and the
/// context made afterwards records into that opening. Serialized: `prepare` keeps one opening for the
/// process, and these tests are the only ones that call it.
@Suite("Context prepared before the arguments are parsed", .serialized)
struct ConsoleContextPrepareTests {
    /// A data directory with a store in it (made and closed, as an earlier command leaves it).
    func homeWithStore(server: LoopbackServer) throws -> ConsoleHarness {
        let harness = ConsoleHarness(server: server)
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        _ = try InspectorStore.open(at: harness.home.appendingPathComponent("inspector.sqlite").path)
        return harness
    }

    @Test func theContextRecordsIntoTheOpeningBegunForItsStore() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = try homeWithStore(server: server)
        defer { harness.remove() }
        let environment = AppEnvironment(variables: harness.variables)
        ConsoleContext.prepare(environment: environment)

        let output = RecordingOutput()
        let diagnostics = RecordingOutput()
        let context = try harness.context(output: output, diagnostics: diagnostics)
        // Taken by the context: nothing is left for a second taker.
        #expect(ConsoleContext.takePreparedStore(path: environment.inspectorPath) == nil)
        let status = await AskRunner(context: context).run(
            AskOptions(prompt: "prepared", stdinText: nil, model: "openai/echo"))
        await context.shutdown()
        await server.stop()
        #expect(status == .success)
        #expect(output.text == "echo: prepared\n")
        #expect(diagnostics.text.isEmpty, "\(diagnostics.text)")
        let store = try InspectorStore.open(at: environment.inspectorPath)
        let rows = try await store.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT state, input_text FROM exchange").map {
                [$0["state"] as String, $0["input_text"] as String]
            }
        }
        #expect(rows == [["completed", "prepared"]])
    }

    @Test func nothingIsCreatedWhenThereIsNoStoreYet() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        await server.stop()
        let environment = AppEnvironment(variables: harness.variables)
        ConsoleContext.prepare(environment: environment)
        #expect(ConsoleContext.takePreparedStore(path: environment.inspectorPath) == nil)
        // Not even the data directory: the command line may still turn out malformed.
        #expect(!FileManager.default.fileExists(atPath: harness.home.path))
    }

    @Test func nothingIsOpenedWhenRecordingIsOff() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        var harness = try homeWithStore(server: server)
        defer { harness.remove() }
        await server.stop()
        harness.extraVariables["OPENRESPONSES_INSPECTOR"] = "OFF"
        let environment = AppEnvironment(variables: harness.variables)
        ConsoleContext.prepare(environment: environment)
        #expect(ConsoleContext.takePreparedStore(path: environment.inspectorPath) == nil)
    }

    @Test func theOpeningIsOnlyForItsOwnStoreAndOnlyOnce() async throws {
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let harness = try homeWithStore(server: server)
        defer { harness.remove() }
        await server.stop()
        let environment = AppEnvironment(variables: harness.variables)
        ConsoleContext.prepare(environment: environment)
        #expect(ConsoleContext.takePreparedStore(path: environment.inspectorPath + "-elsewhere") == nil)
        let opening = try #require(ConsoleContext.takePreparedStore(path: environment.inspectorPath))
        #expect(ConsoleContext.takePreparedStore(path: environment.inspectorPath) == nil)
        let store = try await opening.value().get()
        #expect(store.path == environment.inspectorPath)
    }
}
