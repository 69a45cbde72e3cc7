import Foundation
import Inspector
import ResponsesAPI

/// `/cost` and `ask --estimate`: the next request's input tokens as the server counts them (`POST
/// /responses/input_tokens`: nothing is created, no answer is written) and their estimated cost from the
/// shipped price table. The output's cost is not known before it is written; its price is said.
struct CostEstimate: Sendable {
    var model: String
    var inputTokens: Int
    var price: PriceTable.Price?

    static func count(
        _ request: CreateResponseRequest, client: ResponsesClient, context: ExchangeContext,
        prices: PriceTable = .shipped
    ) async throws(ResponsesAPIError) -> CostEstimate {
        let tokens = try await client.countInputTokens(request, context: context)
        let model = request.body["model"]?.stringValue ?? "?"
        return CostEstimate(model: model, inputTokens: tokens, price: prices.price(for: model))
    }

    var inputCost: Double? { price.map { Double(inputTokens) * $0.input / 1_000_000 } }

    /// `Input: 1,234 tokens for gpt-4.1-mini (counted by the server) · ~$0.0005 at $0.40 per 1M input tokens;
    /// output $1.60 per 1M, not counted before it is written.`
    var line: String {
        let head = "Input: \(SessionSpending.number(inputTokens)) tokens for \(model) (counted by the server)"
        guard let price, let inputCost else { return head + " · no price for \(model) in the price table.\n" }
        return head + " · ~\(SessionSpending.dollars(inputCost)) at $\(Self.rate(price.input)) per 1M input tokens; "
            + "output $\(Self.rate(price.output)) per 1M, not counted before it is written.\n"
    }

    /// A price per million tokens: in cents when it is a whole number of cents ($0.40), else as written ($0.075).
    static func rate(_ value: Double) -> String {
        abs((value * 100).rounded() - value * 100) < 1e-9 ? String(format: "%.2f", value) : String(format: "%g", value)
    }
}
