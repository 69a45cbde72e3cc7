import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// The conformance suite against the loopback conformance server: every check passes on a server that
/// does what OpenAI does; a forgetful one with a stream missing a sequence number fails the chain and the
/// stream in the right words and skips file_search; its record makes a console session start stateless.
@Suite("Conformance suite")
struct ConformanceSuiteTests {
    static func report(_ server: ConformanceServer) async throws -> ConformanceReport {
        let loopback = try await LoopbackServer.start(route: server.route)
        defer { Task { await loopback.stop() } }
        return try await withClient(server: loopback) { client in
            await ConformanceSuite(client: client, provider: "loop", model: "conf-model").run()
        }
    }

    @Test func aServerThatDoesWhatOpenAIDoesPassesEveryCheck() async throws {
        let report = try await Self.report(ConformanceServer(vectorStore: true))
        #expect(report.results.map(\.check) == ConformanceCheck.allCases)
        for result in report.results {
            #expect(result.verdict == .passed, "\(result.check): \(result.verdict)")
        }
        #expect(report.keepsChains == true)
        #expect(report.passed)
    }

    @Test func aForgetfulServerFailsTheChainAndAStreamWithoutASequenceNumberIsNamed() async throws {
        let report = try await Self.report(ConformanceServer(flaws: [.forgetsChains, .dropsASequenceNumber]))
        #expect(report.verdict(.create) == .passed)
        #expect(report.verdict(.stream) == .failed("event 7 `response.output_text.delta`: no `sequence_number`"))
        #expect(
            report.verdict(.chain)
                == .failed("chain not kept: the second turn's input items do not hold the first turn"))
        #expect(report.keepsChains == false)
        #expect(report.verdict(.fileSearch) == .skipped("no vector store"))
        #expect(report.verdict(.inputTokens) == .passed)
        #expect(!report.passed)
    }

    @Test func anAnswerThatIsNotJSONIsQuotedCut() async throws {
        let report = try await Self.report(ConformanceServer(flaws: [.hostileText]))
        guard case .failed(let difference)? = report.verdict(.jsonSchema) else {
            Issue.record("json_schema: \(String(describing: report.verdict(.jsonSchema)))")
            return
        }
        #expect(difference.hasPrefix("the output is not JSON: "))
    }

    @Test func theRecordMakesASessionOnAForgetfulProviderStartStateless() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("or-conf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = AppEnvironment.resolved(variables: ["OPENRESPONSES_HOME": home.path])
        let date = Date(timeIntervalSince1970: 1_795_270_000)
        let forgetful = ConformanceReport(
            provider: "litellm", baseURL: "http://127.0.0.1:4000/v1", model: "echo", checkedAt: date,
            results: [ConformanceResult(check: .chain, verdict: .failed("chain not kept"))], keepsChains: false)
        let keeping = ConformanceReport(
            provider: "stack", baseURL: "http://127.0.0.1:8321/v1", model: "openai/echo", checkedAt: date,
            results: [ConformanceResult(check: .chain, verdict: .passed)], keepsChains: true)
        try ConformanceRecord.keep([forgetful, keeping], environment: environment)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: ConformanceRecord.path(environment).path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(ConformanceRecord.load(environment).reports["litellm"] == forgetful)

        let decided = ChainKeeping.startingMode(
            provider: "litellm", baseURL: "http://127.0.0.1:4000/v1", environment: environment)
        #expect(decided.mode == .stateless)
        #expect(
            decided.notice
                == "provider litellm does not keep chained turns (providers check --conformance, 2026-11-21): stateless mode"
        )
        let stack = ChainKeeping.startingMode(
            provider: "stack", baseURL: "http://127.0.0.1:8321/v1", environment: environment)
        #expect(stack.mode == .stored && stack.notice == nil)
        let moved = ChainKeeping.startingMode(
            provider: "litellm", baseURL: "http://127.0.0.1:4001/v1", environment: environment)
        #expect(moved.mode == .stored, "a record of another address decides nothing")
        let chosen = ChainKeeping.startingMode(
            provider: "litellm", baseURL: "http://127.0.0.1:4000/v1", explicit: .stored, environment: environment)
        #expect(chosen.mode == .stored && chosen.notice == nil, "the user's choice wins")
    }
}
