#if TeamInspector
    import Foundation
    import Inspector
    import ResponsesAPI
    import TeamStore
    import TestSupport
    import Testing

    /// A local history pushed to a real PostgreSQL: the team store reads back what the SQLite store has, exchange
    /// for exchange and byte for byte; a second push adds nothing; search and filters select the same exchanges.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamPushTests {
        @Test func aPushedHistoryReadsBackAsTheLocalStoreHasIt() async throws {
            let history = try RecordedHistory()
            defer { history.remove() }
            try await history.record(streamed: 3)
            try await TeamStore.with(try TeamCluster.freshDatabase()) { team in
                let origin = try await history.store.identity()
                let exchanges = try await history.store.exchangesToPush(destination: team.address.destination)
                #expect(exchanges.count == 6)
                #expect(exchanges.contains { $0.detail.summary.state == "failed" && $0.detail.summary.status == 429 })
                let outcome = try await team.push(exchanges, origin: origin)
                #expect(outcome.added.count == 6 && outcome.refused.isEmpty)
                // Again (another process that had read the same rows): nothing twice.
                let again = try await team.push(exchanges, origin: origin)
                #expect(again.added.isEmpty && again.alreadyThere.count == 6)

                let local = try await history.store.exchanges(matching: ExchangeQuery(limit: 100))
                let remote = try await team.exchanges(matching: ExchangeQuery(limit: 100))
                #expect(remote.count == local.count)
                for (mine, theirs) in zip(local, remote) {
                    let a = try #require(try await history.store.exchange(id: mine.id))
                    let b = try #require(try await team.exchange(id: theirs.id))
                    #expect(Self.comparable(a) == Self.comparable(b), "exchange \(mine.id)")
                    #expect(a.requestBody == b.requestBody && a.responseBody == b.responseBody)
                    #expect(a.events.map(\.data) == b.events.map(\.data))
                    #expect(a.events.map(\.offsetMs) == b.events.map(\.offsetMs))
                }
            }
        }

        @Test func searchAndFiltersSelectTheSameExchangesInBothEngines() async throws {
            let history = try RecordedHistory()
            defer { history.remove() }
            try await history.record(streamed: 2)
            try await TeamStore.with(try TeamCluster.freshDatabase()) { team in
                _ = try await team.push(
                    try await history.store.exchangesToPush(destination: team.address.destination),
                    origin: try await history.store.identity())
                let engines: [any InspectorReading] = [history.store, team]
                let queries: [(String, ExchangeQuery)] = [
                    ("search one word", ExchangeQuery(search: "turn1")),
                    ("search two words", ExchangeQuery(search: "answer whole")),
                    ("search syntax", ExchangeQuery(search: "& | ! ( ) :* 'quoted' \\")),
                    ("search accents", ExchangeQuery(search: "ünïcödé")),
                    ("search a part of a word with punctuation", ExchangeQuery(search: "4.1")),
                    ("search a part of a host", ExchangeQuery(search: "example")),
                    ("search a part of an address", ExchangeQuery(search: "alice")),
                    ("search a part of a path", ExchangeQuery(search: "main.swift")),
                    ("status 429", ExchangeQuery(status: "429")),
                    ("state failed", ExchangeQuery(status: "failed")),
                    ("model prefix", ExchangeQuery(model: "gpt-4.1")),
                    ("model literal %", ExchangeQuery(model: "gpt%")),
                    ("source", ExchangeQuery(source: "console")),
                ]
                for (name, query) in queries {
                    var counts: [Int] = []
                    for engine in engines { counts.append(try await engine.exchanges(matching: query).count) }
                    #expect(counts[0] == counts[1], "\(name): SQLite \(counts[0]), PostgreSQL \(counts[1])")
                }
                #expect(try await team.exchanges(matching: ExchangeQuery(search: "turn1")).count == 1)
                for word in ["4.1", "example", "alice", "main.swift"] {
                    #expect(try await team.exchanges(matching: ExchangeQuery(search: word)).count == 1, "\(word)")
                }
                let local = try await history.store.stats(by: .model, since: nil)
                let remote = try await team.stats(by: .model, since: nil)
                #expect(local == remote)
            }
        }

        /// What PostgreSQL's `text` cannot hold (U+0000) and a text whose search vector would pass its 1 MB limit
        /// (200,000 distinct words): pushed, not refused; the bytes exact, the NUL shown as U+FFFD in text.
        @Test func valuesPostgreSQLCannotHoldAsTheyArriveArePushed() async throws {
            // A generous deadline: this is about values, and a loaded machine makes the vector slowly.
            try await TeamStore.with(try TeamCluster.freshDatabase(), patience: .seconds(60)) { team in
                var summary = ExchangeSummary(
                    id: 7, startedAt: Date(), method: "POST", url: "http://127.0.0.1/v1/responses\u{0}",
                    state: "completed",
                    streamed: true, source: "proxy", eventCount: 1, attempt: 0)
                summary.model = "gpt\u{0}-evil"
                summary.error = #"{"message":"a\u0000b"}"#
                let body = Array(#"{"model":"gpt\u0000-evil","input":"x\u0000"}"#.utf8) + [0, 0xFF, 0xFE]
                let detail = ExchangeDetail(
                    summary: summary, requestHeaders: [("X-Evil", "a\u{0}b")], requestBody: body,
                    responseHeaders: [], responseBody: nil,
                    events: [StoredEvent(index: 0, sequenceNumber: nil, offsetMs: 1, type: "t\u{0}", data: [0, 1, 2])])
                let words = (0..<200_000).map { "w\($0)x" }.joined(separator: " ")
                let exchange = PushedExchange(detail: detail, inputText: "in\u{0}put", outputText: words, eventText: "")
                let outcome = try await team.push([exchange], origin: "hostile")
                #expect(outcome.refused.isEmpty, "\(outcome.refused)")
                let stored = try #require(try await team.exchanges(matching: ExchangeQuery()).first)
                #expect(stored.model == "gpt\u{FFFD}-evil")
                let read = try #require(try await team.exchange(id: stored.id))
                #expect(read.requestBody == body && read.events.first?.data == [0, 1, 2])
                // Indexed by its first words rather than refused.
                #expect(try await team.exchanges(matching: ExchangeQuery(search: "w5x")).count == 1)
            }
        }

        /// What both engines must agree on: the JSON `inspect show --json` prints, without the ids (each engine
        /// numbers its own) and with the replay link as a presence.
        static func comparable(_ detail: ExchangeDetail) -> String {
            guard case .object(var object) = detail.json else { return "" }
            object["id"] = nil
            object["replay_of"] = detail.replayOf == nil ? .null : .bool(true)
            return JSONValue.object(object).compactString
        }
    }
#endif
