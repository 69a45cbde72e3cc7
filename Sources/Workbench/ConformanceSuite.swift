import Foundation
import ResponsesAPI

/// `providers check --conformance`: a fixed suite of requests to one Responses server, each answer judged
/// against what OpenAI's API does: the streams against `StreamRules` (read from OpenAI's recorded streams),
/// the rest against the spec. Everything the server sends is untrusted: each check is bounded in time,
/// a stream in events and bytes, and a difference quotes at most `quoteLimit` characters of it.
public struct ConformanceSuite: Sendable {
    public var client: ResponsesClient
    public var provider: String
    public var model: String
    /// How long one check may take, all its requests together.
    public var checkTimeout: Duration
    public var maximumEvents = 20_000
    public var maximumStreamBytes = 16 << 20
    public var context = ExchangeContext(labels: ["source": "providers check --conformance"])
    let now: @Sendable () -> Date

    public init(
        client: ResponsesClient, provider: String, model: String, checkTimeout: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.client = client
        self.provider = provider
        self.model = model
        self.checkTimeout = checkTimeout
        self.now = now
    }

    static let quoteLimit = 120
    /// What the chain check asks the server to remember, and looks for afterwards.
    public static let marker = "ZEPHYR-4711"

    /// Runs every check, one after another; `only`, when given, limits them (tests).
    public func run(only: Set<ConformanceCheck>? = nil) async -> ConformanceReport {
        var results: [ConformanceResult] = []
        var keepsChains: Bool?
        let clock = ContinuousClock()
        for check in ConformanceCheck.allCases where only?.contains(check) ?? true {
            if Task.isCancelled { break }
            let start = clock.now
            let outcome = await bounded(check) { () async throws -> Outcome in try await self.perform(check) }
            if check == .chain { keepsChains = outcome.keepsChains }
            let elapsed = clock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            var result = ConformanceResult(check: check, verdict: outcome.verdict, milliseconds: milliseconds)
            if case .skipped = outcome.verdict { result.milliseconds = nil }
            results.append(result)
        }
        return ConformanceReport(
            provider: provider, baseURL: client.configuration.baseURL, model: model, checkedAt: now(),
            results: results, keepsChains: keepsChains)
    }

    /// A check's verdict, and for the chain check whether the chain was kept.
    struct Outcome: Sendable {
        var verdict: ConformanceVerdict
        var keepsChains: Bool?

        static let passed = Outcome(verdict: .passed)
        static func failed(_ difference: String) -> Outcome { Outcome(verdict: .failed(difference)) }
    }

    /// Runs `work` for at most `checkTimeout`; an error becomes the check's failure, in words.
    func bounded(_ check: ConformanceCheck, _ work: @escaping @Sendable () async throws -> Outcome) async -> Outcome {
        let timeout = checkTimeout
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do { return try await work() } catch { return .failed(Self.describe(error)) }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failed("no answer within \(timeout.components.seconds) s")
            }
            var result = Outcome.failed("cancelled")
            for await outcome in group {
                guard let outcome else { continue }
                result = outcome
                break
            }
            group.cancelAll()
            return result
        }
    }

    /// An error in a few words: the HTTP status and the server's message, cut to `quoteLimit`.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ResponsesAPIError {
            let status = error.status.map { "HTTP \($0): " } ?? ""
            return status + quote(error.message)
        }
        if let failure = error as? CheckFailure { return failure.difference }
        return quote("\(error)")
    }

    /// Untrusted text cut to `quoteLimit` characters, on one line (the console cleans it for the terminal).
    static func quote(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > quoteLimit ? String(line.prefix(quoteLimit)) + "…" : line
    }

    /// A check that found a difference partway (thrown to end it).
    struct CheckFailure: Error {
        var difference: String
    }
}
