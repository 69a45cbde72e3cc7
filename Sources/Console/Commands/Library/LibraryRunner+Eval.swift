import Foundation
import Library
import ResponsesAPI

/// `library eval QUERIES.jsonl [--store ID] [--per-query] [--json]`.
extension LibraryRunner {
    /// The labelled queries of a JSON Lines file; a line that is not one is an error naming the file and line.
    func labelledQueries(_ path: String) throws(ConsoleError) -> [RetrievalMetrics.Query] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConsoleError("cannot read \(path): \(error.localizedDescription)", exitStatus: .usage)
        }
        var queries: [RetrievalMetrics.Query] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let query: RetrievalMetrics.Query
            do { query = try JSONDecoder().decode(RetrievalMetrics.Query.self, from: Data(line.utf8)) } catch {
                throw ConsoleError(
                    "\(path):\(index + 1): not a labelled query ({\"query\": \"...\", \"paths\": [\"...\"]}): \(Self.describe(error))",
                    exitStatus: .usage)
            }
            guard !query.paths.isEmpty else {
                throw ConsoleError("\(path):\(index + 1): \"paths\" is empty", exitStatus: .usage)
            }
            queries.append(query)
        }
        guard !queries.isEmpty else { throw ConsoleError("\(path) holds no queries", exitStatus: .usage) }
        return queries
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        case DecodingError.dataCorrupted: "not JSON"
        default: "\(error)"
        }
    }

    public func eval(_ path: String, storeID: String?, perQuery: Bool, json: Bool, options: LibraryOptions) async
        -> ExitStatus
    {
        let queries: [RetrievalMetrics.Query]
        do { queries = try labelledQueries(path) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        return await withClient(storeID != nil) { client in
            await withService(options, client: client) { service in
                let rankings = try await rankings(service: service, client: client, storeID: storeID)
                var scores = [[RetrievalMetrics]](repeating: [], count: rankings.count)
                var times = [Double](repeating: 0, count: rankings.count)
                for query in queries {
                    for (index, ranking) in rankings.enumerated() {
                        let ranked = try await ranking.run(query.query, 50)
                        scores[index].append(RetrievalMetrics.score(ranked.hits, for: query))
                        times[index] += ranked.milliseconds
                    }
                }
                let means = scores.map(RetrievalMetrics.mean)
                if json {
                    output.write(
                        Self.evalJSON(rankings.map(\.name), means, times: times, queries: queries, scores: scores)
                            + "\n")
                    return .success
                }
                var text = "\(queries.count) queries from \(path)\n"
                text +=
                    "ranking".padding(toLength: 32, withPad: " ", startingAt: 0)
                    + "  nDCG@10  Recall@10     MRR   ms/query\n"
                for (index, ranking) in rankings.enumerated() {
                    text +=
                        ranking.name.padding(toLength: 32, withPad: " ", startingAt: 0)
                        + String(
                            format: "  %7.3f  %9.3f  %6.3f  %9.1f\n", means[index].ndcg, means[index].recall,
                            means[index].reciprocalRank, times[index] / Double(queries.count))
                }
                if perQuery {
                    text += "\nnDCG@10 per query: " + rankings.map(\.name).joined(separator: " | ") + "\n"
                    for (number, query) in queries.enumerated() {
                        let clipped = query.query.count > 48 ? String(query.query.prefix(47)) + "…" : query.query
                        text +=
                            String(format: "%3d. ", number + 1)
                            + clipped.padding(toLength: 48, withPad: " ", startingAt: 0)
                            + scores.map { String(format: "  %5.3f", $0[number].ndcg) }.joined() + "\n"
                    }
                }
                output.write(text)
                return .success
            }
        }
    }

    static func evalJSON(
        _ names: [String], _ means: [RetrievalMetrics], times: [Double], queries: [RetrievalMetrics.Query],
        scores: [[RetrievalMetrics]]
    ) -> String {
        func figures(_ metrics: RetrievalMetrics) -> JSONValue {
            [
                "ndcg_at_10": .number(metrics.ndcg), "recall_at_10": .number(metrics.recall),
                "mrr": .number(metrics.reciprocalRank),
            ]
        }
        var rankings: JSONObject = [:]
        for (index, name) in names.enumerated() {
            var entry = figures(means[index]).objectValue ?? [:]
            entry["ms_per_query"] = .number(times[index] / Double(max(queries.count, 1)))
            rankings[name] = .object(entry)
        }
        let perQuery: [JSONValue] = queries.enumerated().map { number, query in
            var byRanking: JSONObject = [:]
            for (index, name) in names.enumerated() { byRanking[name] = figures(scores[index][number]) }
            return ["query": .string(query.query), "rankings": .object(byRanking)]
        }
        return JSONValue.object([
            "queries": .integer(queries.count), "rankings": .object(rankings), "per_query": .array(perQuery),
        ]).prettyPrinted()
    }
}
