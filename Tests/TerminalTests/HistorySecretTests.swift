import Foundation
import TestSupport
import Testing

/// The history file never gets the configured API key, whatever it looks like: a local gateway's key is
/// rarely shaped like `sk-...`, so the key's value itself must be what is looked for. The console in tmux
/// writes the lines before and after such a line, and not it; the filter itself is in ConsoleTests.
@Suite("The key and the history file")
struct HistorySecretTests {
    static let gatewayKey = "gateway-token-7Q2w9Z"

    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (scripts/setup.sh installs it)"))
    func aLineHoldingTheConfiguredKeyIsNotWritten() async throws {
        let prepare: (inout ConsoleHarness) -> Void = { $0.extraVariables["OPENAI_API_KEY"] = Self.gatewayKey }
        try await ConsoleHarness.withConsole(route: echoRoute(counter: Counter()), prepare: prepare) {
            tmux, _, harness in
            try await tmux.send("first, an ordinary question", until: "echo: first, an ordinary question")
            try await tmux.send("the gateway wants \(Self.gatewayKey) in the header", until: "echo: the gateway wants")
            try await tmux.send("then another question", until: "echo: then another question")
            try await tmux.quit()

            let history = try String(contentsOf: harness.home.appendingPathComponent("history"), encoding: .utf8)
            #expect(history.contains("first, an ordinary question"))
            #expect(history.contains("then another question"), "the lines after it are still kept")
            #expect(!history.contains(Self.gatewayKey))
            #expect(try !harness.dataDirectoryContains(Self.gatewayKey))
        }
    }
}
