import Inspector
import Testing

@Suite("Redactor")
struct RedactorTests {
    let redactor = Redactor(secrets: ["sk-live-abcdefghijklmnop"])

    @Test(
        "secret header names",
        arguments: [
            "Authorization", "api-key", "X-Api-Key", "Cookie", "Set-Cookie", "x-auth-token", "X-Secret",
            "proxy-authorization",
        ])
    func secretHeaders(_ name: String) {
        #expect(Redactor.isSecretHeader(name))
    }

    @Test(
        "ordinary header names",
        arguments: [
            "x-ratelimit-remaining-tokens", "x-ratelimit-limit-tokens", "openai-organization", "content-type",
            "x-request-id",
            "keep-alive",
        ])
    func ordinaryHeaders(_ name: String) {
        #expect(!Redactor.isSecretHeader(name))
    }

    @Test func everyOccurrenceOfTheKeyIsReplacedAndOrdinaryFieldsStay() {
        let body =
            #"{"max_output_tokens":100,"input":"my key is sk-live-abcdefghijklmnop, twice: sk-live-abcdefghijklmnop"}"#
        let redacted = String(decoding: redactor.redact(Array(body.utf8)), as: UTF8.self)
        #expect(redacted == #"{"max_output_tokens":100,"input":"my key is [REDACTED], twice: [REDACTED]"}"#)
        #expect(
            redactor.redact(headers: [("X-Echo", "Bearer sk-live-abcdefghijklmnop")]).first?.1 == "Bearer [REDACTED]")
    }

    @Test func bytesWithoutSecretsAreUntouched() {
        let bytes = Array("sk-live-abcdefghijklmno (one short)".utf8)
        #expect(redactor.redact(bytes) == bytes)
    }
}

@Suite("MCP secrets in request bodies")
struct MCPRedactionTests {
    @Test func authorizationAndHeadersOfMCPToolsAreReplaced() throws {
        let body = Array(
            #"{"model":"m","max_output_tokens":64,"prompt_cache_key":"cache-1","tools":[{"type":"mcp","server_label":"docs","server_url":"https://mcp.example","authorization":"Bearer mcp-secret-123","headers":{"X-Api-Token":"tok-456"}},{"type":"web_search"}]}"#
                .utf8)
        let redacted = String(decoding: Redactor.redactingMCPSecrets(body), as: UTF8.self)
        #expect(!redacted.contains("mcp-secret-123"))
        #expect(!redacted.contains("tok-456"))
        #expect(redacted.contains(#""authorization":"[REDACTED]""#))
        #expect(redacted.contains(#""X-Api-Token":"[REDACTED]""#))
        // Ordinary fields stay exact, in their order.
        #expect(redacted.hasPrefix(#"{"model":"m","max_output_tokens":64,"prompt_cache_key":"cache-1","tools":"#))
        #expect(redacted.contains(#""server_url":"https://mcp.example""#))
    }

    @Test func bodiesWithoutMCPSecretsKeepTheirExactBytes() {
        let body = Array("{ \"model\" : \"m\",\n \"tools\": [{\"type\":\"mcp\",\"server_label\":\"x\"}] }".utf8)
        #expect(Redactor.redactingMCPSecrets(body) == body)
        #expect(Redactor.redactingMCPSecrets(Array("not json".utf8)) == Array("not json".utf8))
    }
}
