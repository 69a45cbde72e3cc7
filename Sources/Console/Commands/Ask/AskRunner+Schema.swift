import ResponsesAPI
import Workbench

extension AskRunner {
    /// The end of `ask --schema`: a completed answer is checked against the schema and, when it conforms,
    /// printed as indented JSON (unless `--json` printed the response object); when it does not, stdout
    /// stays empty, each violation is an error with its JSON path, and the status is `invalidAnswer`. An answer that did not
    /// complete is printed as it came, and its status stands.
    func finish(_ outcome: TurnOutcome, checkedAgainst schema: SchemaFormat, printing: Bool) -> ExitStatus {
        let text = outcome.response?.outputText ?? outcome.text
        guard outcome.exitStatus == .success else {
            if printing, !text.isEmpty { context.output.write(text.hasSuffix("\n") ? text : text + "\n") }
            return outcome.exitStatus
        }
        if text.isEmpty, let refusal = Self.refusal(in: outcome.response) {
            context.diagnostics.write("error: the model refused to answer in the schema: \(refusal)\n")
            return .invalidAnswer
        }
        do {
            let value = try schema.check(answer: text)
            if printing { context.output.write(value.prettyPrinted() + "\n") }
            return .success
        } catch {
            // stdout stays empty: it holds only JSON that conforms. The inspector has the whole answer.
            for line in error.lines { context.diagnostics.write("error: \(line)\n") }
            return error.exitStatus
        }
    }

    /// The text of the refusal parts of `response`'s messages, if any.
    static func refusal(in response: Response?) -> String? {
        var parts: [String] = []
        for item in response?.output ?? [] {
            guard case .message(let message) = item else { continue }
            for part in message.content {
                if case .refusal(let text) = part { parts.append(text) }
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
