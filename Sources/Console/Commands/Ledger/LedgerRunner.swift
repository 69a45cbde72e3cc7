import Foundation
import Inspector
import ResponsesAPI

/// `openresponses ledger list|verify|gc` and `/ledger`: the objects recorded exchanges left on servers
/// (`LedgerEntry`). `verify` asks the server whether each still exists; `gc` deletes the old ones, asking
/// first, reporting each deletion and each failure, and never stopping at the first error. Both act on the
/// objects of the server this context talks to; the others are named with where they live.
public struct LedgerRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    public struct Filter: Sendable {
        public var type: String?
        public var createdBefore: Date?
        public init(type: String? = nil, createdBefore: Date? = nil) {
            self.type = type
            self.createdBefore = createdBefore
        }
    }

    func entries(_ filter: Filter) async throws(ConsoleError) -> [LedgerEntry] {
        try await entries(filter).entries
    }

    /// The selected entries, with the store they were read from.
    func entries(_ filter: Filter) async throws(ConsoleError) -> (entries: [LedgerEntry], store: InspectorStore) {
        if let type = filter.type, LedgerEntry.Kind(rawValue: type) == nil {
            throw ConsoleError(
                "--type \(type): use " + LedgerEntry.Kind.allCases.map(\.rawValue).joined(separator: ", "),
                exitStatus: .usage)
        }
        let store = try ConsoleContext.openStore(environment: context.environment, diagnostics: context.diagnostics)
        do {
            let read = try await store.readLedger(type: filter.type, createdBefore: filter.createdBefore)
            Self.note(unreadable: read.unreadable, on: context.diagnostics)
            return (read.entries, store)
        } catch {
            throw ConsoleError("cannot read the ledger in \(store.path): \(error)", exitStatus: .apiError)
        }
    }

    /// Says which ledger entries could not be read and are left out.
    static func note(unreadable: [String], on diagnostics: any OutputSink) {
        for problem in unreadable { diagnostics.write("note: ledger entry \(problem); it is left out\n") }
    }

    public func list(_ filter: Filter, json: Bool) async -> ExitStatus {
        do {
            let entries: [LedgerEntry] = try await entries(filter)
            if json {
                context.output.write(JSONValue.array(entries.map(\.json)).prettyPrinted() + "\n")
            } else {
                context.output.write(Self.table(entries, here: context.configuration.baseURL))
            }
            return .success
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
    }

    static func table(_ entries: [LedgerEntry], here: String) -> String {
        guard !entries.isEmpty else { return "The ledger is empty: nothing recorded is left on a server.\n" }
        var rows = [["ID", "TYPE", "CREATED", "EXPIRES", "NAME", "FROM", "SERVER"]]
        for entry in entries {
            let from = [
                entry.source, entry.preset.map { "preset \($0)" }, entry.session.map { "session \($0.prefix(8))" },
            ]
            .compactMap { $0 }.joined(separator: ", ")
            rows.append([
                entry.objectId, entry.type, InspectorPresenter.localTime(entry.createdAt),
                entry.expiresAt.map(InspectorPresenter.localTime) ?? "-", entry.label ?? "-", from.isEmpty ? "-" : from,
                entry.baseUrl == here ? "this one" : entry.baseUrl,
            ])
        }
        return InspectorPresenter.render(rows)
    }
}
