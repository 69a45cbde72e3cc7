import Foundation
import ResponsesAPI
import Workbench

/// `openresponses providers list|check`: the named servers, and what each one does when asked: whether it
/// answers `GET /models`, a tiny response without and with streaming (each timed), whether it keeps a
/// chained turn (`previous_response_id` echoed), whether `/embeddings` works, and the models it lists.
public struct ProvidersRunner: Sendable, CommandIORunner {
    let io: CommandIO

    public init(_ io: CommandIO) {
        self.io = io
    }

    func loadCatalog() throws(ConsoleError) -> ProviderCatalog {
        do { return try ProviderCatalog.load(environment: environment) } catch {
            throw ConsoleError(error.message, exitStatus: .usage)
        }
    }

    /// The provider named, or every provider; a name none has is a usage error.
    func providers(named name: String?) throws(ConsoleError) -> [ProviderCatalog.Provider] {
        let catalog = try loadCatalog()
        let chosen = name.map { wanted in catalog.providers.filter { $0.name == wanted } } ?? catalog.providers
        guard !chosen.isEmpty else {
            throw ConsoleError("no provider \(name ?? "") (providers list shows them)", exitStatus: .usage)
        }
        return chosen
    }

    public func list(json: Bool) -> ExitStatus {
        do {
            let catalog = try loadCatalog()
            if json {
                output.write(
                    JSONValue.array(
                        catalog.providers.map { provider in
                            [
                                "name": .string(provider.name), "base_url": .string(provider.baseURL),
                                "key_env": provider.keyEnv.map(JSONValue.string) ?? .null,
                                "model": provider.model.map(JSONValue.string) ?? .null,
                                "headers": .array(provider.headers.keys.sorted().map(JSONValue.string)),
                            ]
                        }
                    ).prettyPrinted() + "\n")
                return .success
            }
            for provider in catalog.providers {
                let key = provider.keyEnv.map { "key from $\($0)" } ?? "key from credentials.yaml (if any)"
                let model = provider.model.map { ", model \($0)" } ?? ""
                output.write("\(provider.name)  \(provider.baseURL)  (\(key)\(model))\n")
            }
            return .success
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
    }

    /// One provider's answers to the checks.
    struct Report: Sendable {
        var name: String
        var baseURL: String
        var models: [String] = []
        var modelsError: String?
        var model: String?
        var create: Result<Double, ConsoleError>?
        var stream: Result<Double, ConsoleError>?
        var chainKept: Bool?
        /// What `chainKept` rests on: the server's input items, or the answer.
        var chainEvidence: String?
        var echoesPrevious: Bool?
        var chainError: String?
        var embeddings: Result<Int, ConsoleError>?
    }

    public func check(_ name: String?, json: Bool) async -> ExitStatus {
        let chosen: [ProviderCatalog.Provider]
        do { chosen = try providers(named: name) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        var reports: [Report] = []
        for provider in chosen {
            var checked = environment.choosing(provider: provider.name)
            // A check waits at most 30 s for each answer (unless the provider or the environment sets its own
            // timeout) and does not retry: a server that accepts and never answers is reported, not waited on.
            checked.variables["OPENRESPONSES_TIMEOUT"] = checked.variables["OPENRESPONSES_TIMEOUT"] ?? "30"
            checked.variables["OPENRESPONSES_MAX_RETRIES"] = checked.variables["OPENRESPONSES_MAX_RETRIES"] ?? "0"
            var context: ConsoleContext?
            var report = Report(name: provider.name, baseURL: provider.baseURL)
            do {
                context = try ConsoleContext(environment: checked, output: output, diagnostics: diagnostics)
            } catch {
                report.modelsError = error.message
            }
            if let context {
                report = await check(provider, client: context.client, report: report)
                await context.shutdown()
            }
            reports.append(report)
        }
        output.write(json ? Self.json(reports) + "\n" : Self.table(reports))
        if Task.isCancelled { return .interrupted }
        // Failed: the models list, the tiny response or the streamed one (a chained turn not kept is a
        // property of the server, not a failure).
        let failed = reports.contains { report in
            if report.modelsError != nil { return true }
            if case .failure = report.create { return true }
            if case .failure = report.stream { return true }
            return false
        }
        return failed ? .apiError : .success
    }

    func check(_ provider: ProviderCatalog.Provider, client: ResponsesClient, report: Report) async -> Report {
        var report = report
        let clock = ContinuousClock()
        let context = ExchangeContext(labels: ["source": "providers check"])
        do {
            report.models = try await client.listModels(context: context).map(\.id)
        } catch {
            report.modelsError = error.message
        }
        report.model = provider.model ?? report.models.first { !Self.isEmbeddingModel($0) }
        if let model = report.model {
            var request = CreateResponseRequest(model: model, input: .string("Remember the code word \(Self.marker)."))
            request.body["store"] = true
            var start = clock.now
            do {
                let first = try await client.create(request, context: context)
                report.create = .success((clock.now - start).milliseconds)
                var chained = CreateResponseRequest(
                    model: model, input: "What was the code word?", previousResponseID: first.id)
                chained.body["store"] = true
                let second = try await client.create(chained, context: context)
                report.echoesPrevious = second.previousResponseID == first.id
                report.chainKept = await kept(
                    first: first, second: second, client: client, context: context, report: &report)
            } catch {
                let message = error.message
                if report.create == nil {
                    report.create = .failure(ConsoleError(message))
                } else {
                    report.chainError = message
                }
            }
            start = clock.now
            do {
                var terminal = false
                for try await event in client.stream(request, context: context) where event.isTerminal {
                    terminal = true
                }
                report.stream =
                    terminal ? .success((clock.now - start).milliseconds) : .failure(ConsoleError("no terminal event"))
            } catch {
                report.stream = .failure(ConsoleError("\(error)"))
            }
        }
        if let embedding = report.models.first(where: Self.isEmbeddingModel) {
            do {
                let vectors = try await client.embeddings(model: embedding, input: ["ok"], context: context)
                report.embeddings = .success(vectors.first?.count ?? 0)
            } catch {
                report.embeddings = .failure(ConsoleError(error.message))
            }
        }
        return report
    }

    static let marker = "ZEPHYR-4711"

    /// Whether the server gave the chained turn the first one: its input items hold the first turn (the
    /// server's own record), or, where it cannot list them, its answer recalls the code word.
    func kept(
        first: Response, second: Response, client: ResponsesClient, context: ExchangeContext, report: inout Report
    ) async -> Bool {
        do {
            let items = try await client.inputItems(responseID: second.id, context: context).data
            report.chainEvidence = "input_items"
            return items.contains { JSONValue.array([$0]).serialized().containsMarker(Self.marker) }
        } catch {
            report.chainEvidence =
                "answer (input_items: HTTP \(error.status.map(String.init) ?? error.code.description))"
            return second.outputText.contains(Self.marker)
        }
    }

    static func isEmbeddingModel(_ id: String) -> Bool {
        let lower = id.lowercased()
        return lower.contains("embed") || lower.contains("minilm") || lower.contains("bge") || lower.contains("e5-")
    }

}

extension Array where Element == UInt8 {
    func containsMarker(_ marker: String) -> Bool {
        String(decoding: self, as: UTF8.self).contains(marker)
    }
}
