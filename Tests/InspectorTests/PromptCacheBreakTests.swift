import Foundation
import ResponsesAPI
import Testing

@testable import Inspector

/// Where two prompts part, in the order the prompt cache reads them, and what the words say of it.
@Suite("Prompt cache: where two prompts part")
struct PromptCacheBreakTests {
    static func prompt(_ body: JSONValue) throws -> CachePrompt {
        try #require(CachePrompt(body: body.serialized()))
    }

    static let weather: JSONValue = [
        "type": "function", "name": "get_weather",
        "parameters": ["type": "object", "properties": ["city": ["type": "string"]]],
    ]
    static let time: JSONValue = ["type": "function", "name": "get_time", "parameters": ["type": "object"]]

    @Test func aTimestampInTheInstructionsIsFoundWithItsByteOffset() throws {
        let head = "You are terse. Answer in English. The time now: "
        let a = try Self.prompt([
            "model": "gpt-4.1", "instructions": .string(head + "2026-11-28T10:14:03Z."), "input": "hi",
        ])
        let b = try Self.prompt([
            "model": "gpt-4.1", "instructions": .string(head + "2026-11-28T10:15:41Z."), "input": "hi",
        ])
        let (found, common) = CacheBreak.find(earlier: a, later: b, chained: false)
        guard case .instructions(let difference) = found else {
            Issue.record("expected the instructions, found \(String(describing: found))")
            return
        }
        // "…10:1" is shared: the first byte that differs is the minute's last digit.
        #expect(difference.offset == head.utf8.count + "2026-11-28T10:1".utf8.count)
        #expect(difference.before == "2026-11-28T10:14:03Z.")
        #expect(difference.after == "2026-11-28T10:15:41Z.")
        #expect(difference.kind == .timestamp)
        #expect(common == difference.offset)
        #expect(
            found?.words
                == "instructions differ at byte \(difference.offset): `2026-11-28T10:14:03Z.` vs `2026-11-28T10:15:41Z.`, a timestamp"
        )
    }

    @Test func theKindsOfDifference() throws {
        #expect(
            TextDifference(
                "request 8f14e45f-ceea-467a-9af4-1a2b3c4d5e6f done", "request 0a1b2c3d-0000-467a-9af4-1a2b3c4d5e6f done"
            ).kind == .uuid)
        #expect(TextDifference("you have 12 credits", "you have 13 credits").kind == .number)
        #expect(TextDifference("a b", "a  b").kind == .whitespace)
        #expect(TextDifference("be brief", "be kind").kind == .text)
        #expect(TextDifference("at 1764325200 exactly", "at 1764325260 exactly").kind == .timestamp)
        // One text the other's beginning, either way, or empty: the difference is where the shorter ends.
        let longer = TextDifference("Rules.", "Rules. Now: 10:14")
        #expect(longer.offset == 6 && longer.before == "" && longer.after == " Now: 10:14" && longer.kind == .timestamp)
        let shorter = TextDifference("Rules. Now: 10:14", "Rules.")
        #expect(shorter.offset == 6 && shorter.before == " Now: 10:14" && shorter.after == "")
        #expect(TextDifference("", "x").offset == 0)
        #expect(TextDifference("é", "éa").before == "é")
        // Never cut inside a character: the run holds whole scalars.
        let accents = TextDifference("prénom: Zoë", "prénom: Zoé")
        #expect(accents.before == "Zoë" && accents.after == "Zoé")
        #expect(accents.offset == "prénom: Zo".utf8.count)
    }

    @Test func toolsReorderedAddedRemovedAndChanged() throws {
        func tools(_ list: [JSONValue]) throws -> CachePrompt {
            try Self.prompt(["model": "m", "tools": .array(list), "input": "x"])
        }
        let both = try tools([Self.weather, Self.time])
        let found = CacheBreak.find(earlier: both, later: try tools([Self.time, Self.weather]), chained: true).0
        #expect(found == .toolsReordered(from: ["get_weather", "get_time"], to: ["get_time", "get_weather"]))
        #expect(found?.words == "tools reordered: [get_weather, get_time] → [get_time, get_weather]")
        let added = CacheBreak.find(earlier: try tools([Self.weather]), later: both, chained: false).0
        #expect(added == .toolAdded(index: 1, name: "get_time"))
        let inserted = CacheBreak.find(
            earlier: try tools([Self.weather]), later: try tools([Self.time, Self.weather]), chained: false
        ).0
        #expect(inserted == .toolAdded(index: 0, name: "get_time"))
        #expect(
            CacheBreak.find(earlier: both, later: try tools([Self.time]), chained: false).0
                == .toolRemoved(index: 0, name: "get_weather"))
        var changed = Self.weather
        if case .object(var object) = changed {
            object["parameters"] = [
                "type": "object", "properties": ["city": ["type": "string"], "unit": ["type": "string"]],
            ]
            changed = .object(object)
        }
        let change = CacheBreak.find(earlier: both, later: try tools([changed, Self.time]), chained: false).0
        #expect(change == .toolChanged(index: 0, name: "get_weather", path: "parameters.properties.unit"))
    }

    @Test func modelAndCacheKeyComeFirst() throws {
        let a = try Self.prompt(["model": "gpt-4.1", "prompt_cache_key": "u1", "instructions": "x", "input": "hi"])
        let b = try Self.prompt(["model": "gpt-4.1-mini", "prompt_cache_key": "u2", "instructions": "y", "input": "hi"])
        #expect(CacheBreak.find(earlier: a, later: b, chained: false).0 == .model(from: "gpt-4.1", to: "gpt-4.1-mini"))
        var c = b
        c.model = "gpt-4.1"
        #expect(CacheBreak.find(earlier: a, later: c, chained: false).0 == .cacheKey(from: "u1", to: "u2"))
    }

    /// A stateless conversation resends its history: the earlier items must come back byte for byte.
    @Test func inputItemsAreComparedInOrderUnlessChained() throws {
        let first: [JSONValue] = [
            ["role": "user", "content": "What is WAL?"], ["role": "assistant", "content": "A log."],
        ]
        let a = try Self.prompt(["model": "m", "input": .array(first)])
        var edited = first
        edited[1] = ["role": "assistant", "content": "A journal."]
        let b = try Self.prompt(["model": "m", "input": .array(edited + [["role": "user", "content": "more"]])])
        guard case .item(let index, let kind, let text?, nil) = CacheBreak.find(earlier: a, later: b, chained: false).0
        else {
            Issue.record("expected an item's text")
            return
        }
        #expect(index == 1 && kind == "assistant message" && text.offset == 2)
        let kept = try Self.prompt(["model": "m", "input": .array(first + [["role": "user", "content": "more"]])])
        let (none, common) = CacheBreak.find(earlier: a, later: kept, chained: false)
        #expect(none == nil)
        #expect(common == first.reduce(0) { $0 + $1.serialized().count })
        let trimmed = try Self.prompt(["model": "m", "input": .array([first[0]])])
        #expect(CacheBreak.find(earlier: a, later: trimmed, chained: false).0 == .itemsDropped(kept: 1, earlier: 2))
        // Chained, the server puts the earlier turn first: the items are not compared.
        #expect(CacheBreak.find(earlier: a, later: trimmed, chained: true).0 == nil)
    }

    @Test func whatIsCacheable() {
        #expect(CacheReport.cacheable(1023) == 0)
        #expect(CacheReport.cacheable(1024) == 1024)
        #expect(CacheReport.cacheable(1151) == 1024)
        #expect(CacheReport.cacheable(1152) == 1152)
        #expect(CacheReport.cacheable(5000) == 4992)
    }

    /// The request's words go to a terminal: a line feed or an escape in them is shown, never obeyed.
    @Test func hostileTextStaysOnOneLine() throws {
        let a = try Self.prompt(["model": "m", "instructions": "ok A", "input": "x"])
        let b = try Self.prompt(["model": "m", "instructions": "ok \u{1B}]0;pwned\u{07}\n\u{1B}[2J", "input": "x"])
        let words = try #require(CacheBreak.find(earlier: a, later: b, chained: false).0?.words)
        #expect(!words.contains("\u{1B}") && !words.contains("\n") && !words.contains("\u{07}"))
        #expect(words.contains("␛]0;pwned␇␊"), "\(words)")
    }
}
