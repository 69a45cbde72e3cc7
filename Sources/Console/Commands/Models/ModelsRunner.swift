import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// `openresponses models`: the models a provider serves (`GET /models`), each with the config file's aliases that
/// point at it and the price table's prices. When the server cannot be asked (no key, no network), that is said
/// and the aliases and the price table's models are listed all the same, with exit status 1.
public struct ModelsRunner: Sendable {
    let context: ConsoleContext
    let prices: PriceTable

    public init(context: ConsoleContext, prices: PriceTable = .shipped) {
        self.context = context
        self.prices = prices
    }

    /// One line of the list.
    struct Row {
        var id: String
        var aliases: [String]
        var price: PriceTable.Price?
        /// Whether the server listed it (false for an alias's target or a priced model it did not list).
        var served: Bool

        var json: JSONValue {
            [
                "id": .string(id), "aliases": .array(aliases.map(JSONValue.string)), "served": .bool(served),
                "price": price.map {
                    ["input": .number($0.input), "cached_input": .number($0.cachedInput), "output": .number($0.output)]
                } ?? .null,
            ]
        }
    }

    public func list(json: Bool) async -> ExitStatus {
        let aliases: ModelAliases
        do {
            aliases = try ConfigFile.load(environment: context.environment)?.aliases ?? ModelAliases()
        } catch {
            context.diagnostics.write(error.linesPrefixed("error: "))
            return .usage
        }
        let server = "\(context.providerName) (\(context.configuration.baseURL))"
        var failure: ResponsesAPIError?
        var served: [String] = []
        do {
            served = try await context.client.listModels(context: ExchangeContext(labels: ["source": "models"]))
                .map(\.id)
        } catch {
            failure = error
        }
        let rows = Self.rows(served: served, aliases: aliases, prices: prices, everyPriced: failure != nil)
        if let failure {
            context.diagnostics.write(
                "error: cannot list the models of \(server): \(failure.message)\n"
                    + "The config file's aliases and the price table's models follow.\n")
        }
        if json {
            var object: JSONObject = [
                "provider": .string(context.providerName), "base_url": .string(context.configuration.baseURL),
                "models": .array(rows.map(\.json)),
                "aliases": .object(JSONObject(aliases.names.map { ($0, JSONValue.string(aliases.resolve($0))) })),
            ]
            object["error"] = failure.map { .string($0.message) } ?? .null
            context.output.write(JSONValue.object(object).prettyPrinted() + "\n")
        } else {
            if failure == nil { context.output.write("\(served.count) models on \(server)\n") }
            context.output.write(Self.table(rows, asked: failure == nil))
        }
        return failure == nil ? .success : .apiError
    }

    /// The server's models (sorted), then the aliases' targets it did not list, then, with `everyPriced` (the server
    /// could not be asked), every other model the price table names.
    static func rows(served: [String], aliases: ModelAliases, prices: PriceTable, everyPriced: Bool) -> [Row] {
        let listed = Set(served)
        let extra = Set(aliases.targets.values).union(everyPriced ? Set(prices.prices.keys) : []).subtracting(listed)
        return (served.sorted() + extra.sorted()).map {
            Row(id: $0, aliases: aliases.names(for: $0), price: prices.price(for: $0), served: listed.contains($0))
        }
    }

    /// Prices in USD per million tokens; a model the server did not list says so (when it was asked).
    static func table(_ rows: [Row], asked: Bool) -> String {
        // Cents, or tenths of a cent where the price has them (0.40, 0.125).
        func money(_ value: Double?) -> String {
            guard let value else { return "-" }
            let text = String(format: "%.3f", value)
            return text.hasSuffix("0") ? String(text.dropLast()) : text
        }
        var table = [["MODEL", "ALIASES", "INPUT $/1M", "CACHED", "OUTPUT", ""]]
        for row in rows {
            table.append([
                row.id, row.aliases.isEmpty ? "-" : row.aliases.joined(separator: ", "), money(row.price?.input),
                money(row.price?.cachedInput), money(row.price?.output),
                row.served || !asked ? "" : "not listed by the server",
            ])
        }
        return InspectorPresenter.render(table).split(separator: "\n").map {
            $0.replacing(/\s+$/, with: "")
        }.joined(separator: "\n") + "\n"
    }
}
