import ArgumentParser
import Console
import Foundation
import Inspector
import Workbench

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look at the recorded HTTP exchanges.",
        subcommands: [List.self, Show.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List recent exchanges, newest first.")

        @Option(name: .long, help: "How many to list.")
        var limit = 50

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
            let store = try openStore()
            let rows = try blocking { try await store.recentExchanges(limit: limit) }
            let presenter = InspectorPresenter()
            FileDescriptorOutput.standardOutput.write(json ? presenter.listJSON(rows) : presenter.listText(rows))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one exchange: headers, bodies, events.")

        @Argument(help: "The exchange id (from inspect list).")
        var id: Int64

        @Flag(name: .long, help: "Print JSON (request body and every event included).")
        var json = false

        func run() throws {
            let store = try openStore()
            guard let detail = try blocking({ try await store.exchange(id: id) }) else {
                throw ConsoleError("no exchange \(id) in \(store.path)", exitStatus: .apiError)
            }
            let presenter = InspectorPresenter()
            FileDescriptorOutput.standardOutput.write(
                json ? detail.json.prettyPrinted() + "\n" : presenter.showText(detail))
        }
    }
}

/// The console context for a command; a malformed environment is reported and exits with status 2.
func makeContext(environment: AppEnvironment) throws -> ConsoleContext {
    do {
        return try ConsoleContext(environment: environment)
    } catch {
        FileDescriptorOutput.standardError.write("error: \(error.message)\n")
        throw ExitCode(error.exitStatus.rawValue)
    }
}

func openStore() throws -> InspectorStore {
    do {
        return try ConsoleContext.openStore(environment: .process)
    } catch let error as ConsoleError {
        FileDescriptorOutput.standardError.write("error: \(error.message)\n")
        throw ExitCode(error.exitStatus.rawValue)
    }
}

/// Runs async work to completion from the (synchronous) main thread.
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let interrupt = try InterruptPipe()
    let (result, _) = MainThreadBridge(interrupt: interrupt).run { () async -> Result<T, any Error> in
        do { return .success(try await operation()) } catch { return .failure(error) }
    }
    return try result.get()
}
