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
        /// Tokens the model takes in one request (input and output), when the table says.
        public var contextWindow: Int? = nil
    }

    public let prices: [String: Price]

    public init(prices: [String: Price]) {
        self.prices = prices
    }

    /// The table shipped with the program (empty when the resource cannot be read): `lib/openresponses/
    /// prices.json` beside an installed binary (`scripts/install.sh`), else the package's resource (in the
    /// build folder beside the binary, where SwiftPM puts it, else wherever `Bundle.module` finds it). The
    /// first two are looked for by path, without Foundation's `Bundle`: it costs about a third of a
    /// millisecond of every command that records (Docs/performance.md).
    public static let shipped: PriceTable = {
        var candidates: [String] = []
        if let executable = executablePath() {
            let directory = parent(executable)
            candidates = [
                parent(directory) + "/lib/openresponses/prices.json",
                directory + "/OpenResponses_Inspector.resources/prices.json",
            ]
        }
        let found =
            candidates.first { FileManager.default.isReadableFile(atPath: $0) }
            ?? Bundle.module.url(forResource: "prices", withExtension: "json")?.path
        guard let path = found, let data = FileManager.default.contents(atPath: path),
            let table = try? PriceTable(json: Array(data))
        else { return PriceTable(prices: [:]) }
        return table
    }()

    /// The running program's path, symbolic links resolved.
    private static func executablePath() -> String? {
        #if os(Linux)
            var buffer = [UInt8](repeating: 0, count: 4097)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if count > 0 { return String(decoding: buffer[..<count], as: UTF8.self) }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath().path
    }

    /// `path` without its last component ("/" for a file at the root).
    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public init(json bytes: [UInt8]) throws {
        var prices: [String: Price] = [:]
        for (model, entry) in try JSONValue.parse(bytes)["models"]?.objectValue ?? JSONObject() {
            guard let input = entry["input"]?.doubleValue, let output = entry["output"]?.doubleValue else { continue }
            prices[model] = Price(
                input: input, cachedInput: entry["cached_input"]?.doubleValue ?? input, output: output,
                contextWindow: entry["context_window"]?.intValue)
        }
        self.init(prices: prices)
    }

    public func price(for model: String) -> Price? {
        let name = model.lowercased()
        if let exact = prices[name] { return exact }
        let family = prices.keys.filter { name.hasPrefix($0 + "-") }.max { $0.count < $1.count }
        return family.flatMap { prices[$0] }
    }

    /// What the Batch API charges of the standard price (half, as OpenAI's pricing page says for every model).
    public static let batchDiscount = 0.5

    /// The cost in USD of `usage` on `model`, at the Batch API's price when `batch`; nil when the model or the
    /// token counts are unknown.
    public func cost(model: String?, usage: Usage?, batch: Bool) -> Double? {
        cost(model: model, usage: usage).map { batch ? $0 * Self.batchDiscount : $0 }
    }

    /// The cost in USD of `usage` on `model`; nil when the model or the token counts are unknown.
    public func cost(model: String?, usage: Usage?) -> Double? {
        guard let model, let usage, let input = usage.inputTokens, let output = usage.outputTokens,
            let price = price(for: model)
        else { return nil }
        let cached = min(usage.cachedInputTokens ?? 0, input)
        return
            (Double(input - cached) * price.input + Double(cached) * price.cachedInput + Double(output) * price.output)
            / 1_000_000
    }
}
