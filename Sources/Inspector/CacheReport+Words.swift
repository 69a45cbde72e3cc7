import Foundation
import ResponsesAPI
import Untrusted

extension CacheBreak {
    /// Where the prompts part, in a sentence: "instructions differ at byte 212: `…10:14` vs `…10:15`, a
    /// timestamp". What the requests hold is shown on one line, its control characters as pictures.
    public var words: String {
        func quoted(_ text: String?) -> String { text.map { "`\(TerminalText.cleanSingleLine($0))`" } ?? "none" }
        func list(_ names: [String]) -> String {
            names.map { TerminalText.cleanSingleLine($0) }.joined(separator: ", ")
        }
        switch self {
        case .model(let from, let to):
            return "model changed (\(quoted(from)) → \(quoted(to))): each model has its own cache"
        case .cacheKey(let from, let to):
            return "prompt_cache_key changed (\(quoted(from)) → \(quoted(to))): the key routes the request to a cache"
        case .chain(let from, let to):
            return "previous_response_id differs (\(quoted(from)) → \(quoted(to))): a different conversation"
        case .toolsReordered(let from, let to): return "tools reordered: [\(list(from))] → [\(list(to))]"
        case .toolAdded(let index, let name): return "tool \(quoted(name)) added at position \(index + 1)"
        case .toolRemoved(let index, let name): return "tool \(quoted(name)) removed from position \(index + 1)"
        case .toolChanged(let index, let name, let path):
            return "tool \(quoted(name)) (position \(index + 1)) changed" + (path.isEmpty ? "" : " at \(quoted(path))")
        case .instructions(let difference): return "instructions differ " + difference.words
        case .item(let index, let kind, let text, let path):
            let item = "input item \(index + 1) (\(TerminalText.cleanSingleLine(kind)))"
            if let text { return "\(item) differs in its text " + text.words }
            return "\(item) differs" + (path.map { $0.isEmpty ? "" : " at \(quoted($0))" } ?? "")
        case .itemsDropped(let kept, let earlier):
            return "the input has \(kept) item\(kept == 1 ? "" : "s") where the earlier request had \(earlier): "
                + "the history was trimmed or compacted"
        }
    }

    public var json: JSONValue {
        func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        var object: JSONObject =
            switch self {
            case .model(let from, let to): ["where": "model", "from": string(from), "to": string(to)]
            case .cacheKey(let from, let to): ["where": "prompt_cache_key", "from": string(from), "to": string(to)]
            case .chain(let from, let to): ["where": "previous_response_id", "from": string(from), "to": string(to)]
            case .toolsReordered(let from, let to):
                [
                    "where": "tools", "change": "reordered", "from": .array(from.map(JSONValue.string)),
                    "to": .array(to.map(JSONValue.string)),
                ]
            case .toolAdded(let index, let name):
                ["where": "tools", "change": "added", "index": .integer(index), "name": .string(name)]
            case .toolRemoved(let index, let name):
                ["where": "tools", "change": "removed", "index": .integer(index), "name": .string(name)]
            case .toolChanged(let index, let name, let path):
                [
                    "where": "tools", "change": "changed", "index": .integer(index), "name": .string(name),
                    "path": .string(path),
                ]
            case .instructions(let difference): ["where": "instructions", "text": difference.json]
            case .item(let index, let kind, let text, let path):
                [
                    "where": "input", "index": .integer(index), "kind": .string(kind), "text": text?.json ?? .null,
                    "path": string(path),
                ]
            case .itemsDropped(let kept, let earlier):
                ["where": "input", "change": "dropped", "kept": .integer(kept), "earlier": .integer(earlier)]
            }
        object["words"] = .string(words)
        return .object(object)
    }
}

extension TextDifference {
    /// "at byte 212: `2026-11-28T10:14` vs `2026-11-28T10:15`, a timestamp".
    public var words: String {
        let sides = [before, after].map { "`\(TerminalText.cleanSingleLine($0))`" }
        return "at byte \(offset): \(sides[0]) vs \(sides[1])" + (kind.words.isEmpty ? "" : ", \(kind.words)")
    }

    public var json: JSONValue {
        [
            "offset": .integer(offset), "before": .string(before), "after": .string(after),
            "kind": .string(kind.rawValue),
        ]
    }
}

extension CacheReport {
    public var json: JSONValue {
        func side(_ side: Side) -> JSONValue {
            [
                "id": .integer(Int(side.id)), "started_at": .string(InspectorStore.timestamp(side.startedAt)),
                "model": side.model.map(JSONValue.string) ?? .null,
                "input_tokens": side.inputTokens.map(JSONValue.integer) ?? .null,
                "cached_tokens": side.cachedTokens.map(JSONValue.integer) ?? .null,
            ]
        }
        let pairs = pairs.map { pair -> JSONValue in
            [
                "earlier": side(pair.earlier), "later": side(pair.later), "relation": .string(pair.relation.rawValue),
                "seconds_apart": .number(pair.seconds), "verdict": .string(pair.verdict.rawValue),
                "break": pair.breakPoint?.json ?? .null, "common_tokens": .integer(pair.commonTokens),
                "cacheable_tokens": .integer(pair.cacheableTokens),
                "lost_tokens": pair.lostTokens.map(JSONValue.integer) ?? .null,
                "lost_usd": pair.lostUSD.map(JSONValue.number) ?? .null,
            ]
        }
        return [
            "examined": .integer(examined), "pairs": .array(pairs), "lost_tokens": .integer(lostTokens),
            "lost_usd": lostUSD.map(JSONValue.number) ?? .null,
            "verdicts": .object(
                JSONObject(
                    [Verdict.hit, .broken, .evicted, .tooShort, .unknown].map { ($0.rawValue, .integer(count($0))) })),
        ]
    }
}
