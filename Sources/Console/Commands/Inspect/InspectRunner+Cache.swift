import Foundation
import Inspector
import ResponsesAPI
import Untrusted

extension InspectRunner {
    /// `inspect cache [ID...] [--since TIME]`: why the prompt cache missed. With ids, the pairs ending at them
    /// (a chain's every turn); else every pair since `since`. The misses are listed, the hits counted.
    public func cache(ids: [Int64], since: Date?, all: Bool, json: Bool, now: Date = Date()) async -> ExitStatus {
        await withStore { store in
            var window = (since: since ?? now.addingTimeInterval(-86_400), before: nil as Date?)
            if !ids.isEmpty {
                var times: [Date] = []
                for id in ids {
                    guard let found = try await store.request(ofExchange: id) else {
                        throw ConsoleError("no exchange \(id) in \(store.path)", exitStatus: .apiError)
                    }
                    times.append(found.summary.startedAt)
                }
                // A cache lasts an hour at most: a day before the first is more than any pair can reach back.
                window = (times.min()!.addingTimeInterval(-86_400), times.max()!.addingTimeInterval(0.001))
            }
            let report = try await store.cacheReport(
                since: window.since, before: window.before, ids: ids.isEmpty ? nil : Set(ids), prices: .shipped)
            output.write(json ? report.json.prettyPrinted() + "\n" : Self.cacheText(report, all: all || !ids.isEmpty))
            return .success
        }
    }

    static func cacheText(_ report: CacheReport, all: Bool) -> String {
        guard !report.pairs.isEmpty else {
            return report.examined == 0
                ? "No /responses requests recorded in that time.\n"
                : "\(report.examined) request\(report.examined == 1 ? "" : "s"), none that could reuse an earlier one's "
                    + "prompt (no chained turn, no earlier request of the same preset or client).\n"
        }
        var out = ""
        for pair in report.pairs where all || ![.hit, .tooShort].contains(pair.verdict) {
            out += pairText(pair)
        }
        let counts = [
            (CacheReport.Verdict.hit, "hit"), (.broken, "broken prefix"), (.evicted, "prefix intact, not cached"),
            (.tooShort, "under 1,024 tokens"), (.unknown, "no usage"),
        ].compactMap { verdict, words in report.count(verdict) == 0 ? nil : "\(report.count(verdict)) \(words)" }
        out +=
            "\(report.pairs.count) pair\(report.pairs.count == 1 ? "" : "s") of \(report.examined) requests: "
            + counts.joined(separator: ", ")
        if report.pairs.contains(where: { $0.lostTokens != nil }) {
            out += "; lost \(grouped(report.lostTokens)) tokens at the cached price"
            out += report.lostUSD.map { String(format: ", $%.4f", $0) } ?? ""
        }
        return out + ".\n"
    }

    static let relation: [CacheReport.Relation: String] = [
        .chained: "chained", .resent: "history resent", .newConversation: "new conversation, same preset or client",
    ]

    static func pairText(_ pair: CacheReport.Pair) -> String {
        let apart =
            pair.seconds < 120 ? String(format: "%.0f s", pair.seconds) : String(format: "%.0f min", pair.seconds / 60)
        let cached =
            pair.later.cachedTokens.map { cached in
                "cached \(grouped(cached)) of \(pair.later.inputTokens.map(grouped) ?? "?") input tokens"
            } ?? "no usage reported"
        var out =
            "#\(pair.earlier.id) → #\(pair.later.id)  (\(relation[pair.relation] ?? ""), "
            + "\(apart) apart)  \(TerminalText.cleanSingleLine(pair.later.model ?? "-"))  \(cached)\n"
        if let breakPoint = pair.breakPoint {
            out += "  \(breakPoint.words)\n"
        }
        switch pair.verdict {
        case .hit: out += "  cache hit\n"
        case .tooShort:
            out +=
                "  the earlier prompt has \(pair.earlier.inputTokens.map(grouped) ?? "?") tokens: "
                + "prefixes under 1,024 tokens are never cached\n"
        case .evicted:
            out +=
                "  the earlier prompt is this one's prefix, yet the server cached less: evicted (an idle cache "
                + "lasts minutes) or served by another machine\n"
        case .broken, .unknown: break
        }
        if let lost = pair.lostTokens, lost > 0 {
            out +=
                "  lost: \(grouped(lost)) of \(grouped(pair.cacheableTokens)) cacheable tokens at full price"
                + (pair.lostUSD.map { String(format: ", $%.4f", $0) } ?? "") + "\n"
        }
        return out
    }

    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
