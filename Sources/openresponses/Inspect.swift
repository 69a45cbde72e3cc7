import ArgumentParser
import Console
import Foundation
import Inspector
import ResponsesAPI
import Workbench

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect", 
        abstract: "Look at the recorded HTTP exchanges: list, show, dump, diff, replay, prune, export.",
        subcommands: [List.self, Show.self, Dump.self, Diff.self, Replay.self, Stats.self, Prune.self, Export.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List exchanges, newest first.")

        @Option(name: .long, help: "Only exchanges started at or after this time (2026-11-21, 2026-11-21T14:00:00Z, or 2h / 3d ago).")
        var since: String?

        @Option(name: .long, help: "Only this model (a family name matches its dated snapshots).")
        var model: String?

        @Option(name: .long, help: "Only this state (completed, failed, cancelled, incomplete, interrupted) or HTTP status.")
        var status: String?

        @Option(name: .long, help: "Only exchanges made with this preset.")
        var preset: String?

        @Option(name: .long, help: "Only exchanges whose input, output or event texts contain all these words.")
        var search: String?

        @Option(name: .long, help: "How many to list.")
        var limit = 50

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
            let query = ExchangeQuery(
                since: try since.map { try parseTime($0, flag: "--since") }, model: model, status: status, preset: preset,
                search: search, limit: limit)
            let store = try openStore()
            let rows = try blocking { try await store.exchanges(matching: query) }
            let presenter = InspectorPresenter()
            FileDescriptorOutput.standardOutput.write(json ? presenter.listJSON(rows) : presenter.listText(rows))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", 
            abstract: "Show one exchange: summary, headers, bodies, events (all unless parts are named).")

        @Argument(help: "The exchange id (from inspect list).")
        var id: Int64

        @Flag(name: .long, help: "The request body.")
        var request = false
        @Flag(name: .long, help: "The response body (the final response of a stream).")
        var response = false
        @Flag(name: .long, help: "The events, with arrival times.")
        var events = false
        @Flag(name: .long, help: "The request and response headers.")
        var headers = false
        @Flag(name: .long, help: "Bodies and event data exactly as stored, not pretty-printed or shortened.")
        var raw = false
        @Flag(name: .long, help: "Print JSON (request body and every event included).")
        var json = false

        func run() throws {
            let detail = try loadExchange(id)
            let parts = InspectorPresenter.Parts(
                request: request, response: response, events: events, headers: headers)
            FileDescriptorOutput.standardOutput.write(
                json ? detail.json.prettyPrinted() + "\n" : InspectorPresenter().showText(detail, parts: parts, raw: raw))
        }
    }

    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "dump", 
            abstract: "Write one exchange as JSON, a curl command ($OPENAI_API_KEY stands for the key), its SSE stream, or HAR.")

        @Argument(help: "The exchange id.")
        var id: Int64

        @Option(name: .long, help: "json, curl, sse or har.")
        var format: String = "json"

        func run() throws {
            guard let format = ExchangeExporter.Format(rawValue: format) else {
                throw ValidationError("--format '\(format)' is not one of json, curl, sse, har")
            }
            FileDescriptorOutput.standardOutput.write(ExchangeExporter().export(try loadExchange(id), as: format))
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "diff", abstract: "JSON-aware differences of two exchanges' requests and responses.")

        @Argument(help: "The first exchange id.")
        var first: Int64
        @Argument(help: "The second exchange id.")
        var second: Int64
        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            let a = try loadExchange(first)
            let b = try loadExchange(second)
            FileDescriptorOutput.standardOutput.write(InspectorPresenter().diff(a, b, json: json))
        }
    }

    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "replay", 
            abstract: "Send a recorded request again (exactly, or with fields changed); the new exchange is linked to it.")

        @Argument(help: "The exchange id.")
        var id: Int64

        @Option(name: .customLong("set"), help: "Change a body field: KEY=VALUE, KEY a dotted path, VALUE JSON or text; KEY= removes it.")
        var changes: [String] = []

        func run() throws {
            let context = try makeContext(environment: .process)
            let interrupt = try InterruptPipe()
            interrupt.install()
            defer { interrupt.uninstall() }
            let (status, _) = MainThreadBridge(interrupt: interrupt).run {
                let status = await ReplayRunner(context: context).run(id: id, changes: changes)
                await context.shutdown()
                return status
            }
            if status != .success { throw ExitCode(status.rawValue) }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", 
            abstract: "Requests, tokens, cost, p50/p95 latency and time to first text, error rate, by model, day or preset.")

        @Option(name: .long, help: "model, day or preset.")
        var by: String = "model"

        @Option(name: .long, help: "Only exchanges started at or after this time.")
        var since: String?

        @Flag(name: .long, help: "Print JSON.")
        var json = false

        func run() throws {
            guard let grouping = ExchangeStats.Grouping(rawValue: by) else {
                throw ValidationError("--by '\(by)' is not one of model, day, preset")
            }
            let date = try since.map { try parseTime($0, flag: "--since") }
            let store = try openStore()
            let stats = try blocking { try await store.stats(by: grouping, since: date) }
            let presenter = InspectorPresenter()
            FileDescriptorOutput.standardOutput.write(
                json ? JSONValue.array(stats.groups.map(\.json)).prettyPrinted() + "\n" : presenter.statsText(stats, by: by))
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "prune", abstract: "Delete the exchanges (and their events) started before a time.")

        @Option(name: .long, help: "Delete what started before this time (2026-11-01, an ISO 8601 time, or 30d ago).")
        var before: String

        func run() throws {
            let date = try parseTime(before, flag: "--before")
            let store = try openStore()
            let count = try blocking {
                let count = try await store.prune(before: date)
                await store.tidyWAL()
                return count
            }
            FileDescriptorOutput.standardOutput.write("deleted \(count) exchange\(count == 1 ? "" : "s") started before \(InspectorStore.timestamp(date))\n")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Write exchanges as JSON Lines (one exchange, events included, per line), oldest first.")

        @Option(name: .long, help: "Only exchanges started at or after this time.")
        var since: String?

        func run() throws {
            let date = try since.map { try parseTime($0, flag: "--since") }
            let store = try openStore()
            try blocking {
                try await store.forEachExchange(since: date) { detail in
                    FileDescriptorOutput.standardOutput.write(detail.json.compactString + "\n")
                }
            }
        }
    }
}

func loadExchange(_ id: Int64) throws -> ExchangeDetail {
    let store = try openStore()
    guard let detail = try blocking({ try await store.exchange(id: id) }) else {
        FileDescriptorOutput.standardError.write("error: no exchange \(id) in \(store.path)\n")
        throw ExitCode(ExitStatus.apiError.rawValue)
    }
    return detail
}

/// `2026-11-21`, `2026-11-21T14:00:00Z` (or with an offset), or a span ago: `90m`, `2h`, `3d`, `1w`.
func parseTime(_ text: String, flag: String, now: Date = Date()) throws -> Date {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let unit = trimmed.last, let amount = Double(trimmed.dropLast()), amount >= 0 {
        let seconds: Double? = switch unit {
        case "s": 1
        case "m": 60
        case "h": 3600
        case "d": 86400
        case "w": 604_800
        default: nil
        }
        if let seconds { return now.addingTimeInterval(-amount * seconds) }
    }
    if let date = try? Date(trimmed, strategy: .iso8601) { return date }
    let day = DateFormatter()
    day.locale = Locale(identifier: "en_US_POSIX")
    day.timeZone = TimeZone(identifier: "UTC")
    day.dateFormat = "yyyy-MM-dd"
    if let date = day.date(from: trimmed) { return date }
    throw ValidationError("\(flag) '\(text)' is not a time: write 2026-11-21, 2026-11-21T14:00:00Z, or a span ago such as 2h or 3d")
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
        return try ConsoleContext.openStore(environment: .process, diagnostics: FileDescriptorOutput.standardError)
    } catch {
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
