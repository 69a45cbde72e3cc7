import Foundation
import ResponsesAPI

/// `inspect cache`: for each pair of requests where the later one could have reused the earlier one's prompt
/// from the server's cache (a chained turn and the turn it continues, or two consecutive requests of one
/// preset or one proxied client), where their prompts part, what the server reported as cached, and what the
/// miss cost at the model's cached-input price.
public struct CacheReport: Sendable {
    /// One side of a pair, as the store has it.
    public struct Side: Sendable, Hashable {
        public var id: Int64
        public var startedAt: Date
        public var model: String?
        public var inputTokens: Int?
        public var cachedTokens: Int?
    }

    public enum Verdict: String, Sendable, Hashable {
        /// The server reported at least what the earlier prompt could give.
        case hit
        /// The prompts part before the earlier one ends: the rest was sent at the full price. (A new
        /// conversation's own input always parts; it is judged on the tools and instructions it shares.)
        case broken
        /// What the two could share is under 1,024 tokens: nothing of it is cached.
        case tooShort = "too_short"
        /// The earlier prompt is the later one's prefix, yet less was cached: evicted (caches last minutes
        /// when idle) or served elsewhere.
        case evicted
        /// The later request has no usage (it failed, or was cut off).
        case unknown
    }

    /// How the later request follows the earlier one.
    public enum Relation: String, Sendable, Hashable {
        /// It continues it by `previous_response_id`: the server puts the earlier turn before its input.
        case chained
        /// It resends the earlier request's conversation (a stateless client): the same first input item.
        case resent
        /// A new conversation of the same preset or client: only the tools and instructions can be shared.
        case newConversation = "new_conversation"
    }

    public struct Pair: Sendable, Hashable {
        public var earlier: Side
        public var later: Side
        public var relation: Relation
        public var breakPoint: CacheBreak?
        /// About how many tokens of the earlier prompt the later one starts with (4 bytes a token).
        public var commonTokens: Int
        /// What the server could have reported as cached had the prefix held: the earlier prompt's tokens,
        /// in the cache's steps (1,024, then 128 more at a time); for a new conversation, the part the two
        /// share (its tools and instructions), since its input is its own.
        public var cacheableTokens: Int
        public var lostTokens: Int?
        public var lostUSD: Double?
        public var verdict: Verdict

        public var seconds: Double { later.startedAt.timeIntervalSince(earlier.startedAt) }
    }

    public var pairs: [Pair]
    /// Exchanges looked at (POST /responses with a JSON body).
    public var examined: Int

    public var lostTokens: Int { pairs.reduce(0) { $0 + ($1.lostTokens ?? 0) } }
    public var lostUSD: Double? {
        let costs = pairs.compactMap(\.lostUSD)
        return costs.isEmpty ? nil : costs.reduce(0, +)
    }
    public func count(_ verdict: Verdict) -> Int { pairs.filter { $0.verdict == verdict }.count }

    /// The cache's minimum prefix and its step beyond it (OpenAI's prompt caching).
    static let minimumTokens = 1024
    static let stepTokens = 128

    static func cacheable(_ tokens: Int) -> Int {
        tokens < minimumTokens ? 0 : minimumTokens + (tokens - minimumTokens) / stepTokens * stepTokens
    }

    /// The pair's figures and verdict from the two prompts and the store's usage.
    static func pair(
        earlier: Side, earlierPrompt: CachePrompt, later: Side, laterPrompt: CachePrompt, relation: Relation,
        prices: PriceTable
    ) -> Pair {
        let (breakPoint, commonBytes) = CacheBreak.find(
            earlier: earlierPrompt, later: laterPrompt, chained: relation == .chained)
        let earlierTokens = earlier.inputTokens ?? earlierPrompt.byteCount / 4
        let commonTokens = min(earlierTokens, breakPoint == nil ? earlierTokens : commonBytes / 4)
        var pair = Pair(
            earlier: earlier, later: later, relation: relation, breakPoint: breakPoint, commonTokens: commonTokens,
            cacheableTokens: cacheable(relation == .newConversation ? commonTokens : earlierTokens),
            verdict: .unknown)
        let cacheable = pair.cacheableTokens
        guard let cached = later.cachedTokens ?? later.inputTokens.map({ _ in 0 }) else {
            pair.verdict = breakPoint == nil ? .unknown : .broken
            return pair
        }
        let lost = max(0, min(cacheable, later.inputTokens ?? cacheable) - cached)
        pair.lostTokens = lost
        if let model = later.model, let price = prices.price(for: model) {
            pair.lostUSD = Double(lost) * (price.input - price.cachedInput) / 1_000_000
        }
        pair.verdict =
            if cacheable == 0 {
                .tooShort
            } else if lost == 0 {
                .hit
            } else if breakPoint != nil && relation != .newConversation {
                .broken
            } else {
                // What the two could share held (a new conversation's cacheable part ends at its break).
                .evicted
            }
        return pair
    }
}

/// Token counts as the store has them, from servers: never negative, never near overflow when summed.
enum TokenCount {
    static let maximum = 1 << 40

    static func clamped(_ value: Int?) -> Int? { value.map { max(0, min($0, maximum)) } }
}
