import Foundation
import ResponsesAPI

/// Prices per million tokens by model, from `Resources/prices.json`. A model is matched by the longest
/// listed name it starts with (so dated snapshots find their family); an unknown model has no price, and
/// so no cost is shown rather than a wrong one.
public struct PriceTable: Sendable {
    public struct Price: Sendable, Hashable {
        public var input: Double
        public var cachedInput: Double
        public var output: Double
    }

    public let prices: [String: Price]

    public init(prices: [String: Price]) {
        self.prices = prices
    }

    /// The table shipped with the program (empty when the resource cannot be read): `lib/openresponses/
    /// prices.json` beside an installed binary (`scripts/install.sh`), else the package's resource.
    public static let shipped: PriceTable = {
        let installed = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lib/openresponses/prices.json")
        let found = installed.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
        guard let url = found ?? Bundle.module.url(forResource: "prices", withExtension: "json"),
            let data = try? Data(contentsOf: url), let table = try? PriceTable(json: Array(data))
        else { return PriceTable(prices: [:]) }
        return table
    }()

    public init(json bytes: [UInt8]) throws {
        var prices: [String: Price] = [:]
        for (model, entry) in try JSONValue.parse(bytes)["models"]?.objectValue ?? JSONObject() {
            guard let input = entry["input"]?.doubleValue, let output = entry["output"]?.doubleValue else { continue }
            prices[model] = Price(input: input, cachedInput: entry["cached_input"]?.doubleValue ?? input, output: output)
        }
        self.init(prices: prices)
    }

    public func price(for model: String) -> Price? {
        let name = model.lowercased()
        if let exact = prices[name] { return exact }
        let family = prices.keys.filter { name.hasPrefix($0 + "-") }.max { $0.count < $1.count }
        return family.flatMap { prices[$0] }
    }

    /// The cost in USD of `usage` on `model`; nil when the model or the token counts are unknown.
    public func cost(model: String?, usage: Usage?) -> Double? {
        guard let model, let usage, let input = usage.inputTokens, let output = usage.outputTokens,
            let price = price(for: model)
        else { return nil }
        let cached = min(usage.cachedInputTokens ?? 0, input)
        return (Double(input - cached) * price.input + Double(cached) * price.cachedInput + Double(output) * price.output)
            / 1_000_000
    }
}
