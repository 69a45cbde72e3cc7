import Testing

@testable import Console

/// The history filter is given the configured API key, whatever it looks like: a local gateway's key is
/// rarely shaped like `sk-...`, so the key's value itself must be what is looked for. The console in tmux
/// keeping such a line out of the history file is in TerminalTests.
@Suite("The key and the history file")
struct HistorySecretTests {
    static let gatewayKey = "gateway-token-7Q2w9Z"

    @Test func theFilterKnowsTheKeyItIsGiven() {
        #expect(HistoryFilter.holdsSecret("my key is \(Self.gatewayKey), ok", secrets: [Self.gatewayKey]))
        #expect(HistoryFilter.holdsSecret(Self.gatewayKey, secrets: [Self.gatewayKey]))
        #expect(!HistoryFilter.holdsSecret("my key is \(Self.gatewayKey), ok", secrets: []), "not shaped like a key")
        #expect(!HistoryFilter.holdsSecret("an ordinary question", secrets: [Self.gatewayKey]))
    }
}
