import Foundation
import ResponsesAPI

/// `/logprobs`: the last answer's tokens with their probabilities and the alternatives the model weighed
/// (`top_logprobs`), one line per token, from the `logprobs` of its `output_text` parts (which the API sends
/// with `include: [message.output_text.logprobs]`).
///
///     #    token            p        alternatives
///     1    "Paris"        98.20 %   " Paris" 1.10 %, "paris" 0.31 %
struct LogprobsTable {
    /// One token: its text, log probability and the alternatives' (text, log probability).
    struct Token: Equatable {
        var text: String
        var logprob: Double
        var alternatives: [(text: String, logprob: Double)]

        static func == (a: Token, b: Token) -> Bool {
            a.text == b.text && a.logprob == b.logprob && a.alternatives.elementsEqual(b.alternatives) { $0 == $1 }
        }
    }

    var tokens: [Token]

    /// The tokens of every `output_text` part of a response's messages, in order.
    init(response: Response) {
        var tokens: [Token] = []
        for item in response.output {
            guard case .message(let message) = item else { continue }
            for part in message.content {
                guard case .outputText(let text) = part else { continue }
                tokens += text.logprobs.compactMap(Self.token)
            }
        }
        self.tokens = tokens
    }

    init(tokens: [Token]) {
        self.tokens = tokens
    }

    static func token(_ json: JSONValue) -> Token? {
        guard let text = json["token"]?.stringValue, let logprob = json["logprob"]?.doubleValue else { return nil }
        let alternatives: [(text: String, logprob: Double)] = (json["top_logprobs"]?.arrayValue ?? []).compactMap {
            entry in
            guard let text = entry["token"]?.stringValue, let logprob = entry["logprob"]?.doubleValue else {
                return nil
            }
            return (text, logprob)
        }
        // The chosen token is listed among the alternatives too: shown once, in its own column.
        return Token(text: text, logprob: logprob, alternatives: alternatives.filter { $0.text != text })
    }

    /// The table, `limit` tokens at most (then a line saying how many more there are), each line cut to `width`.
    func lines(width: Int, limit: Int) -> [String] {
        guard !tokens.isEmpty else { return [] }
        let shown = tokens.prefix(limit)
        let tokenWidth = min(24, max(7, shown.map { Self.quoted($0.text).count }.max() ?? 7))
        let numberWidth = max(3, String(shown.count).count + 1)
        func pad(_ text: String, _ count: Int) -> String {
            text + String(repeating: " ", count: max(0, count - text.count))
        }
        var lines = [pad("#", numberWidth) + " " + pad("token", tokenWidth) + "  " + pad("p", 9) + "  alternatives"]
        for (index, token) in shown.enumerated() {
            let alternatives = token.alternatives.map { "\(Self.quoted($0.text)) \(Self.percent($0.logprob))" }.joined(
                separator: ", ")
            var line =
                pad(String(index + 1), numberWidth) + " " + pad(Self.quoted(token.text), tokenWidth) + "  "
                + pad(Self.percent(token.logprob), 9) + (alternatives.isEmpty ? "" : "  " + alternatives)
            if line.count > width, width > 1 { line = String(line.prefix(width - 1)) + "…" }
            lines.append(line)
        }
        if tokens.count > shown.count {
            lines.append("… \(tokens.count - shown.count) more tokens (/logprobs \(tokens.count) shows them all)")
        }
        return lines
    }

    /// A token as JSON would quote it, so spaces and line breaks show.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).compactString
    }

    /// A log probability as a percentage with two decimals.
    static func percent(_ logprob: Double) -> String {
        String(format: "%.2f %%", exp(logprob) * 100)
    }
}
