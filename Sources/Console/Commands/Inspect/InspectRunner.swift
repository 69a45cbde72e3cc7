import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// `openresponses inspect ...` (all but `replay`, which is `ReplayRunner`): the store opened (a damaged
/// one moved aside), the query run, the result written through the sinks; every failure one line and an
/// exit status.
public struct InspectRunner: Sendable, CommandIORunner {
    let io: CommandIO
    /// `--local`: this machine's store even when `inspector.url` names a team's.
    let readsLocal: Bool

    public init(_ io: CommandIO, readsLocal: Bool = false) {
        self.io = io
        self.readsLocal = readsLocal
    }

    /// Opens the store and runs `body`; a missing or unreadable store, or a failed query, is one line.
    func withStore(_ body: (InspectorStore) async throws -> ExitStatus) async -> ExitStatus {
        let store: InspectorStore
        do {
            store = try ConsoleContext.openStore(environment: environment, diagnostics: diagnostics)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        do {
            return try await body(store)
        } catch let error as any UserFacingError {
            return ErrorReport.write(error, to: diagnostics)
        } catch {
            diagnostics.write("error: cannot read \(store.path): \(error)\n")
            return .apiError
        }
    }

    func exchange(_ id: Int64, in store: any InspectorReading) async throws -> ExchangeDetail {
        guard let detail = try await store.exchange(id: id) else {
            throw ConsoleError("no exchange \(id) in \(store.location)", exitStatus: .apiError)
        }
        return detail
    }

    public func list(_ query: ExchangeQuery, json: Bool) async -> ExitStatus {
        await withReader { store in
            let rows = try await store.exchanges(matching: query)
            let presenter = InspectorPresenter()
            output.write(json ? presenter.listJSON(rows) : presenter.listText(rows))
            return .success
        }
    }

    public func show(id: Int64, parts: InspectorPresenter.Parts, raw: Bool, json: Bool) async -> ExitStatus {
        await withReader { store in
            let detail = try await exchange(id, in: store)
            let response = detail.summary.responseId ?? ""
            let calls = try await store.toolCalls(forResponses: response.isEmpty ? [] : [response])[response] ?? []
            if json {
                var object = detail.json
                if case .object(var fields) = object, !calls.isEmpty {
                    fields["tool_calls"] = .array(calls.map(\.json))
                    object = .object(fields)
                }
                output.write(object.prettyPrinted() + "\n")
            } else {
                output.write(InspectorPresenter().showText(detail, parts: parts, raw: raw))
                if !calls.isEmpty, parts.all { output.write(InspectorPresenter.toolCallsText(calls)) }
            }
            return .success
        }
    }

    public func dump(id: Int64, format: ExchangeExporter.Format, keepObfuscation: Bool = false) async -> ExitStatus {
        await withReader { store in
            output.write(
                ExchangeExporter(keepsObfuscation: keepObfuscation).export(
                    try await exchange(id, in: store), as: format))
            return .success
        }
    }

    public func diff(_ first: Int64, _ second: Int64, json: Bool) async -> ExitStatus {
        await withReader { store in
            let a = try await exchange(first, in: store)
            let b = try await exchange(second, in: store)
            output.write(InspectorPresenter().diff(a, b, json: json))
            return .success
        }
    }

    public func stats(by grouping: ExchangeStats.Grouping, since: Date?, json: Bool) async -> ExitStatus {
        await withReader { store in
            let stats = try await store.stats(by: grouping, since: since)
            output.write(
                json
                    ? JSONValue.array(stats.groups.map(\.json)).prettyPrinted() + "\n"
                    : InspectorPresenter().statsText(stats, by: grouping.rawValue))
            return .success
        }
    }

    public func prune(before date: Date) async -> ExitStatus {
        await withReader { store in
            let count = try await store.prune(before: date)
            if let local = store as? InspectorStore { await local.tidyWAL() }
            output.write(
                "deleted \(count) exchange\(count == 1 ? "" : "s") started before \(InspectorStore.timestamp(date))\n")
            return .success
        }
    }

    public func export(since: Date?) async -> ExitStatus {
        await withReader { store in
            try await store.forEachExchange(since: since) { detail in
                output.write(detail.json.compactString + "\n")
            }
            return .success
        }
    }
}
