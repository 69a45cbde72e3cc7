import Foundation
import ResponsesAPI

extension ReplayComparison {
    public var json: JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
        func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
        let rows = rows.map { row -> JSONValue in
            [
                "id": .integer(Int(row.original.id)),
                "replay_id": row.replay.exchangeID.map { .integer(Int($0)) } ?? .null,
                "similarity": number(row.similarity), "error": row.replay.error.map(JSONValue.string) ?? .null,
                "before": [
                    "model": row.original.model.map(JSONValue.string) ?? .null, "answer": .string(row.original.answer),
                    "input_tokens": integer(row.original.inputTokens),
                    "output_tokens": integer(row.original.outputTokens),
                    "cost_usd": number(row.original.costUSD), "duration_ms": number(row.original.durationMs),
                ],
                "after": [
                    "model": row.replay.model.map(JSONValue.string) ?? .null, "answer": .string(row.replay.answer),
                    "input_tokens": integer(row.replay.inputTokens), "output_tokens": integer(row.replay.outputTokens),
                    "cost_usd": number(row.replay.costUSD), "duration_ms": number(row.replay.durationMs),
                ],
            ]
        }
        let cost = totals(\.costUSD, \.costUSD)
        let input = totals(\.inputTokens, \.inputTokens)
        let output = totals(\.outputTokens, \.outputTokens)
        return [
            "target": .string(target), "similarity_measure": .string(measure), "rows": .array(rows),
            "totals": [
                "replayed": .integer(self.rows.count), "failed": .integer(failed),
                "mean_similarity": number(meanSimilarity),
                "cost_usd": ["before": .number(cost.0), "after": .number(cost.1), "rows": .integer(cost.2)],
                "input_tokens": ["before": .integer(input.0), "after": .integer(input.1), "rows": .integer(input.2)],
                "output_tokens": [
                    "before": .integer(output.0), "after": .integer(output.1), "rows": .integer(output.2),
                ],
                "p50_duration_ms": [
                    "before": number(medianDurations.before), "after": number(medianDurations.after),
                ],
            ],
            "changed_most": .array(changedMost(5).map { .integer(Int($0.original.id)) }),
        ]
    }
}
