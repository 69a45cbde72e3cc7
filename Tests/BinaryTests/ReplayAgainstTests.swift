import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `inspect replay --against`: twenty recorded answers of one model replayed against another that answers
/// five of them differently, compared with the built-in model.
@Suite("inspect replay --against")
struct ReplayAgainstTests {
    static let topics = [
        "pelicans", "glaciers", "compilers", "sourdough", "volcanoes", "tides", "violins", "orbits", "lichens",
        "bridges",
    ]

    /// model-a says what it was asked about; model-b too, except about birds and bread, where it talks of
    /// something else entirely.
    static let route = answeringRoute { model, input in
        let topic = topics.first { input.contains($0) } ?? "nothing"
        if model == "model-b", ["pelicans", "sourdough"].contains(topic) {
            return "The quarterly tax filing deadline moved to April because of the new accounting rules."
        }
        return "Here are some facts about \(topic): they are well studied and often described in detail."
    }

    func harness(_ server: LoopbackServer) throws -> ConsoleHarness {
        let harness = ConsoleHarness(server: server)
        if let model = InstalledModel.minilm {
            try FileManager.default.createDirectory(
                at: harness.home.appendingPathComponent("models"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: harness.home.appendingPathComponent("models/all-MiniLM-L6-v2").path, withDestinationPath: model)
        }
        return harness
    }

    @Test(.enabled(if: InstalledModel.shouldRun, Comment(rawValue: InstalledModel.skipReason)))
    func twentyExchangesAgainstAModelThatAnswersFiveDifferently() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = try harness(server)
        defer { harness.remove() }
        for index in 0..<20 {
            let ask = try await harness.run([
                "ask", "--model", "model-a", "tell me about \(Self.topics[index % 10]) (\(index))",
            ])
            #expect(ask.status == 0, "\(ask.stderr)")
        }
        // Without a terminal to ask on, it refuses before sending anything.
        let refused = try await harness.run(["inspect", "replay", "--against", "model-b"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("add --yes"))
        #expect(server.requests.count == 20)

        let result = try await harness.run([
            "inspect", "replay", "--against", "model-b", "--since", "1h", "--yes", "--json",
            "--html", harness.home.appendingPathComponent("replay.html").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Replay 20 exchanges against model model-b"))
        #expect(server.requests.count == 40)
        let sent = server.requests.suffix(20).compactMap { try? JSONValue.parse($0.body) }
        #expect(sent.allSatisfy { $0["model"] == "model-b" && $0["stream"] == false })

        let report = try JSONValue.parse(result.stdout)
        let rows = report["rows"]?.arrayValue ?? []
        try #require(rows.count == 20)
        #expect(report["similarity_measure"] == "all-MiniLM-L6-v2 cosine")
        // Each replay is recorded, linked to its original.
        // (four at a time: in the order they were sent, not the originals')
        #expect(Set(rows.compactMap { $0["replay_id"]?.intValue }) == Set(21...40))
        let last = try #require(rows.last)
        let shown = try await harness.run(["inspect", "show", "\(last["replay_id"]?.intValue ?? 0)", "--json"])
        #expect(try JSONValue.parse(shown.stdout)["replay_of"] == last["id"])
        let changed = rows.filter {
            ($0["before"]?["answer"]?.stringValue ?? "").contains("pelicans")
                || ($0["before"]?["answer"]?.stringValue ?? "").contains("sourdough")
        }
        #expect(changed.count == 4)
        let scores = rows.map { $0["similarity"]?.doubleValue ?? -1 }
        let changedScores = changed.map { $0["similarity"]?.doubleValue ?? 1 }
        let same = scores.filter { $0 > 0.99 }
        #expect(same.count == 16, "\(scores)")
        #expect(changedScores.allSatisfy { $0 < 0.5 }, "\(changedScores)")
        // The most changed first: the four other answers.
        let most = report["changed_most"]?.arrayValue?.prefix(4).compactMap { $0.intValue } ?? []
        #expect(Set(most) == Set(changed.compactMap { $0["id"]?.intValue }))
        #expect(report["totals"]?["failed"] == 0)

        let page = try String(contentsOf: harness.home.appendingPathComponent("replay.html"), encoding: .utf8)
        #expect(page.contains("Replay against model model-b"))
        #expect(page.contains("quarterly tax filing"))
    }

    @Test func aTextReportAndItsErrors() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = try harness(server)
        defer { harness.remove() }
        let ask = try await harness.run(["ask", "--model", "model-a", "tell me about pelicans"])
        #expect(ask.status == 0)
        let text = try await harness.run(["inspect", "replay", "1", "--against", "model-b", "--yes"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Replayed against model model-b (each exchange on its own provider).\nID  "))
        #expect(text.stdout.contains("#1  #2      "))
        #expect(text.stdout.contains("Changed most:\n  #1 ("))
        #expect(text.stdout.contains("cost unknown (prices.json has no price for these models)"))
        #expect(text.stdout.contains("after:  The quarterly tax filing deadline"))

        let notAResponse = try await harness.run(["inspect", "replay", "99", "--against", "model-b", "--yes"])
        #expect(notAResponse.status == 2)
        #expect(notAResponse.stderr.contains("exchange 99 is not a recorded POST /responses request"))
        let both = try await harness.run(["inspect", "replay", "1", "--against", "x", "--set", "a=b"])
        #expect(both.status != 0)
        #expect(both.stderr.contains("--against replaces --set and --provider"))
        let alone = try await harness.run(["inspect", "replay", "1", "--yes"])
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("--yes goes with --against"))
        let provider = try await harness.run(["inspect", "replay", "--against", "nosuch:model", "--yes"])
        // nosuch is not a provider: the whole name is a model.
        #expect(provider.stderr.contains("against model nosuch:model"))
        await server.stop()
    }
}
