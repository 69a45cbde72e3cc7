import Foundation
import Inspector
import ResponsesAPI

/// What a console session has spent: each request's tokens and estimated cost, by model, from the usage the
/// server reported and the shipped price table. The usage line shows a turn's cost and the running total;
/// `/usage` the table.
struct SessionSpending: Sendable {
    struct Line: Sendable, Hashable {
        var requests = 0
        var inputTokens = 0
        var cachedInputTokens = 0
        var outputTokens = 0
        /// Nil when the price table has no price for the model.
        var cost: Double? = 0
    }

    private(set) var byModel: [String: Line] = [:]
    let prices: PriceTable

    init(prices: PriceTable = .shipped) {
        self.prices = prices
    }

    /// The whole session's estimated cost (models without a price left out).
    var total: Double { byModel.values.compactMap(\.cost).reduce(0, +) }

    /// Adds one request; returns its estimated cost (nil when its model has no price).
    @discardableResult
    mutating func add(model: String?, usage: Usage) -> Double? {
        let name = model ?? "(unknown model)"
        let cost = prices.cost(model: model, usage: usage)
        var line = byModel[name] ?? Line()
        line.requests += 1
        line.inputTokens += usage.inputTokens ?? 0
        line.cachedInputTokens += usage.cachedInputTokens ?? 0
        line.outputTokens += usage.outputTokens ?? 0
        line.cost = cost.flatMap { cost in line.cost.map { $0 + cost } }
        byModel[name] = line
        return cost
    }

    /// `/usage`: one row per model, then the total.
    var table: String {
        guard !byModel.isEmpty else { return "No requests in this session yet.\n" }
        var rows = [["MODEL", "REQUESTS", "INPUT", "CACHED", "OUTPUT", "COST"]]
        for (model, line) in byModel.sorted(by: { $0.key < $1.key }) {
            rows.append([
                model, String(line.requests), Self.number(line.inputTokens), Self.number(line.cachedInputTokens),
                Self.number(line.outputTokens), line.cost.map(Self.dollars) ?? "no price",
            ])
        }
        return InspectorPresenter.render(rows)
            + "Session total: \(Self.dollars(total)) (estimated from the shipped price table; models without a price are not counted)\n"
    }

    static func number(_ value: Int) -> String { value.formatted(.number.grouping(.automatic)) }

    /// Dollars: two decimals from a dollar, four from a cent, six below (a short answer costs millionths).
    static func dollars(_ value: Double) -> String {
        value >= 1
            ? String(format: "$%.2f", value)
            : value >= 0.01 ? String(format: "$%.4f", value) : String(format: "$%.6f", value)
    }
}
