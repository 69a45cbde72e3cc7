import Foundation
import ResponsesAPI

/// The checks of `providers check --conformance`, in the order they run and are shown.
public enum ConformanceCheck: String, Sendable, CaseIterable {
    case create
    case stream
    case chain
    case functionCall = "function_call"
    case jsonSchema = "json_schema"
    case background
    case inputTokens = "input_tokens"
    case fileSearch = "file_search"
    case reasoningSummary = "reasoning_summary"

    /// The column heading of the matrix.
    public var heading: String {
        switch self {
        case .create: "create"
        case .stream: "stream"
        case .chain: "chain"
        case .functionCall: "function call"
        case .jsonSchema: "json_schema"
        case .background: "background"
        case .inputTokens: "input_tokens"
        case .fileSearch: "file_search"
        case .reasoningSummary: "reasoning"
        }
    }
}

/// What one check found: passed, failed with the first difference in words, or skipped with the reason.
public enum ConformanceVerdict: Sendable, Hashable {
    case passed
    case failed(String)
    case skipped(String)

    public var failed: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// One check's verdict and how long it took.
public struct ConformanceResult: Sendable, Hashable {
    public var check: ConformanceCheck
    public var verdict: ConformanceVerdict
    public var milliseconds: Double?

    public init(check: ConformanceCheck, verdict: ConformanceVerdict, milliseconds: Double? = nil) {
        self.check = check
        self.verdict = verdict
        self.milliseconds = milliseconds
    }
}

/// One provider's row of the matrix. `keepsChains` is what the chain check established (nil when it could
/// not tell: the server failed before the question could be asked).
public struct ConformanceReport: Sendable, Hashable {
    public var provider: String
    public var baseURL: String
    public var model: String?
    public var checkedAt: Date
    public var results: [ConformanceResult]
    public var keepsChains: Bool?

    public init(
        provider: String, baseURL: String, model: String?, checkedAt: Date, results: [ConformanceResult],
        keepsChains: Bool?
    ) {
        self.provider = provider
        self.baseURL = baseURL
        self.model = model
        self.checkedAt = checkedAt
        self.results = results
        self.keepsChains = keepsChains
    }

    public func verdict(_ check: ConformanceCheck) -> ConformanceVerdict? {
        results.first { $0.check == check }?.verdict
    }

    /// True when every check that ran passed.
    public var passed: Bool { !results.contains { $0.verdict.failed } }

    /// The day, as the record and the console's notice write it.
    public var day: String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: checkedAt)
    }
}
