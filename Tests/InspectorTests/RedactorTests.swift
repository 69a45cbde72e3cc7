import Inspector
import Testing

@Suite("Redactor")
struct RedactorTests {
    let redactor = Redactor(secrets: ["sk-live-abcdefghijklmnop"])

    @Test("secret header names", arguments: [
        "Authorization", "api-key", "X-Api-Key", "Cookie", "Set-Cookie", "x-auth-token", "X-Secret", "proxy-authorization",
    ])
    func secretHeaders(_ name: String) {
        #expect(Redactor.isSecretHeader(name))
    }

    @Test("ordinary header names", arguments: [
        "x-ratelimit-remaining-tokens", "x-ratelimit-limit-tokens", "openai-organization", "content-type", "x-request-id",
        "keep-alive",
    ])
    func ordinaryHeaders(_ name: String) {
        #expect(!Redactor.isSecretHeader(name))
    }

    @Test func everyOccurrenceOfTheKeyIsReplacedAndOrdinaryFieldsStay() {
        let body = #"{"max_output_tokens":100,"input":"my key is sk-live-abcdefghijklmnop, twice: sk-live-abcdefghijklmnop"}"#
        let redacted = String(decoding: redactor.redact(Array(body.utf8)), as: UTF8.self)
        #expect(redacted == #"{"max_output_tokens":100,"input":"my key is [REDACTED], twice: [REDACTED]"}"#)
        #expect(redactor.redact(headers: [("X-Echo", "Bearer sk-live-abcdefghijklmnop")]).first?.1 == "Bearer [REDACTED]")
    }

    @Test func bytesWithoutSecretsAreUntouched() {
        let bytes = Array("sk-live-abcdefghijklmno (one short)".utf8)
        #expect(redactor.redact(bytes) == bytes)
    }
}
