import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Cost before sending: `ask --estimate` asks the server to count the input tokens (`POST
/// /responses/input_tokens` only, with the fields it takes) and prices them. `/cost` and `/usage` in the
/// console are in TerminalTests.
@Suite("cost before and after sending")
struct CostTests {
    @Test func askEstimateCountsAndPricesWithoutCreating() async throws {
        let harness = try await ConsoleHarness.start(route: ConsoleRoutes.cost(counted: 1234))
        defer { harness.close() }
        let server = harness.server
        let result = try await harness.run([
            "ask", "--estimate", "--model", "gpt-4.1-mini", "--set", "temperature=0.3", "--set",
            "max_output_tokens=50", "How long is a piece of string?",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "Input: 1,234 tokens for gpt-4.1-mini (counted by the server) · ~$0.000494 at $0.40 per 1M input tokens; output $1.60 per 1M, not counted before it is written.\n"
        )
        #expect(server.requests.map(\.path) == ["/v1/responses/input_tokens"], "nothing is created")
        let body = try #require(server.requests.first?.jsonBody)
        #expect(
            Set(body.keys).isSubset(of: ResponsesClient.tokenCountFields),
            "only the fields input_tokens takes: \(body.keys.sorted())")
        #expect(body["model"] as? String == "gpt-4.1-mini")
        #expect(body["input"] != nil)

        let unknown = try await harness.run(["ask", "--estimate", "--model", "my-local-model", "hi"])
        #expect(
            unknown.stdout
                == "Input: 1,234 tokens for my-local-model (counted by the server) · no price for my-local-model in the price table.\n"
        )
    }
}
