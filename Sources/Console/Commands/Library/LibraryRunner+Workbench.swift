import Foundation
import Library
import ResponsesAPI

/// The retrieval workbench: the library's rankings (and a hosted vector store's search) side by side on one
/// query (`library compare`), and measured on labelled queries (`library eval`).
extension LibraryRunner {
    /// One ranking's answer to one query: its hits, as the metrics see them and as people read them, and the time.
    struct Ranked {
        var hits: [RetrievalMetrics.Hit]
        var labels: [String]
        var milliseconds: Double
    }

    /// The rankings to run: the library's three (semantic and hybrid only with vectors), then the store's.
    func rankings(service: LibraryService, client: ResponsesClient?, storeID: String?)
        async throws -> [(name: String, run: @Sendable (String, Int) async throws -> Ranked)]
    {
        let retriever = try await service.retriever()
        if let unavailable = retriever.unavailable { diagnostics.write("note: \(unavailable): keyword ranking only\n") }
        let clock = ContinuousClock()
        var modes: [Retriever.Mode] = [.keyword]
        if retriever.embedder != nil { modes += [.semantic, .hybrid] }
        var rankings: [(name: String, run: @Sendable (String, Int) async throws -> Ranked)] = modes.map { mode in
            (
                mode.rawValue,
                { query, k in
                    let start = clock.now
                    let hits = try await retriever.search(query, k: k, mode: mode).hits
                    return Ranked(
                        hits: hits.map(Self.metricsHit),
                        labels: hits.map { $0.location }, milliseconds: (clock.now - start).milliseconds)
                }
            )
        }
        if let storeID, let client {
            rankings.append(
                (
                    "store \(storeID)",
                    { query, k in
                        let start = clock.now
                        let results = try await client.searchVectorStore(
                            storeID: storeID, query: query, maxResults: min(k, 50))
                        let paths = results.map {
                            $0["attributes"]?["path"]?.stringValue ?? $0["filename"]?.stringValue ?? $0["file_id"]?
                                .stringValue ?? "?"
                        }
                        return Ranked(
                            hits: paths.map { RetrievalMetrics.Hit(path: $0) },
                            labels: paths.map { URL(fileURLWithPath: $0).lastPathComponent },
                            milliseconds: (clock.now - start).milliseconds)
                    }
                ))
        }
        return rankings
    }

    /// A passage as the metrics see it: its document and the pages it spans.
    static func metricsHit(_ hit: SearchHit) -> RetrievalMetrics.Hit {
        RetrievalMetrics.Hit(path: hit.path, pages: hit.page.map { page in page...max(page, hit.endPage ?? page) })
    }

    /// Runs `body` with a client when a store is named (its context shut down after).
    func withClient(_ needed: Bool, _ body: (ResponsesClient?) async -> ExitStatus) async -> ExitStatus {
        guard needed else { return await body(nil) }
        let context: ConsoleContext
        do {
            context = try ConsoleContext(environment: environment, output: output, diagnostics: diagnostics)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        let status = await body(context.client)
        await context.shutdown()
        return status
    }

    /// `library compare QUERY [--store ID] [--k N]`: the rankings in columns, rank by rank, each document
    /// marked with one letter in every column it appears in, and each ranking's time.
    public func compare(_ query: String, storeID: String?, k: Int, options: LibraryOptions) async -> ExitStatus {
        await withClient(storeID != nil) { client in
            await withService(options, client: client) { service in
                let rankings = try await rankings(service: service, client: client, storeID: storeID)
                var columns: [(name: String, ranked: Ranked)] = []
                for ranking in rankings {
                    do {
                        columns.append((ranking.name, try await ranking.run(query, k)))
                    } catch {
                        ErrorReport.write(error, to: diagnostics, context: ranking.name)
                    }
                }
                output.write(Self.compareTable(columns, k: k))
                return columns.count == rankings.count ? .success : .apiError
            }
        }
    }

    static func compareTable(_ columns: [(name: String, ranked: Ranked)], k: Int, width: Int = 30) -> String {
        var letters: [String: Character] = [:]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        for column in columns {
            for hit in column.ranked.hits {
                let name = URL(fileURLWithPath: hit.path).lastPathComponent
                if letters[name] == nil {
                    letters[name] = letters.count < alphabet.count ? alphabet[letters.count] : "*"
                }
            }
        }
        func cell(_ text: String) -> String {
            let clipped = text.count > width ? String(text.prefix(width - 1)) + "…" : text
            return clipped.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        var text =
            "    "
            + columns.map { cell(String(format: "%@ (%.0f ms)", $0.name, $0.ranked.milliseconds)) }.joined(
                separator: "  ") + "\n"
        for rank in 0..<k {
            guard columns.contains(where: { $0.ranked.hits.count > rank }) else { break }
            text +=
                String(format: "%2d. ", rank + 1)
                + columns.map { column in
                    guard rank < column.ranked.hits.count else { return cell("") }
                    let letter = letters[URL(fileURLWithPath: column.ranked.hits[rank].path).lastPathComponent] ?? "*"
                    return cell("\(letter) \(column.ranked.labels[rank])")
                }.joined(separator: "  ") + "\n"
        }
        return text
    }
}
