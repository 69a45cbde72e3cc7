import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `providers check --conformance` against the peer: llama-stack keeps chained turns and LiteLLM does not,
/// and a console session on LiteLLM then starts stateless by itself (its echo model counts the user turns
/// it was sent: `echo[2]:` when the first turn was sent again).
@Suite("conformance against the peer")
struct ConformancePeerTests {

    @Test(.enabled(if: PeerServer.baseURL != nil, Comment(rawValue: PeerServer.skipReason)))
    func theMatrixSaysWhichPeerKeepsChainsAndLiteLLMGoesStateless() async throws {
        let home = TestHome("conf-peer", environment: ["LITELLM_KEY": "sk-test-1234"])
        defer { home.remove() }
        let stack = try #require(PeerServer.baseURL)
        _ = try home.write("config.yaml", PeerServer.providersConfig(stack: stack), mode: 0o600)
        let check = try await home.run(["providers", "check", "--conformance", "--json", "stack"])
        let other = try await home.run(["providers", "check", "--conformance", "--json", "litellm"])
        let reports =
            (try JSONValue.parse(Array(check.stdout.utf8)).arrayValue ?? [])
            + (try JSONValue.parse(Array(other.stdout.utf8)).arrayValue ?? [])
        let byName = Dictionary(
            uniqueKeysWithValues: reports.compactMap { report in report["provider"]?.stringValue.map { ($0, report) } })
        #expect(byName["stack"]?["keeps_chains"] == true, "\(check.stdout)")
        #expect(byName["stack"]?["checks"]?["create"]?["verdict"] == "passed", "\(check.stdout)")
        #expect(byName["litellm"]?["keeps_chains"] == false, "\(other.stdout)")
        #expect(byName["litellm"]?["checks"]?["chain"]?["verdict"] == "failed")

        let matrix = try await home.run(["providers", "check", "--conformance"])
        #expect(matrix.stdout.contains("stack keeps chained turns"), "\(matrix.stdout)")
        #expect(matrix.stdout.contains("litellm does not keep chained turns"), "\(matrix.stdout)")

        let chat = try await Subprocess.run(
            Subprocess.openresponsesBinary, ["chat", "--provider", "litellm"],
            environment: home.environment.merging(
                ["OPENRESPONSES_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin"]) { $1 },
            stdin: "first line\nsecond line\n")
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stderr.contains("provider litellm does not keep chained turns (providers check --conformance, "))
        #expect(chat.stdout.contains("echo[2]: "), "the second turn was sent with the first: \(chat.stdout)")
    }
}
