import Foundation
import ResponsesAPI

extension REPL {
    /// `/logprobs [N]`: the last answer's tokens with their probabilities, or what to set to get them.
    func logprobsCommand(_ rest: String) {
        let argument = rest.trimmingCharacters(in: .whitespaces)
        guard argument.isEmpty || Int(argument).map({ $0 > 0 }) == true else {
            context.diagnostics.write("error: /logprobs takes a number of tokens (/logprobs 100), not '\(argument)'\n")
            return
        }
        guard let response = lastOutcome?.response else {
            context.diagnostics.write("No answer yet: /logprobs shows the last answer's tokens.\n")
            return
        }
        let table = LogprobsTable(response: response)
        guard !table.tokens.isEmpty else {
            context.diagnostics.write(
                "The last answer has no log probabilities: /set include message.output_text.logprobs and /set top_logprobs 5 "
                    + "(0-20 alternatives per token), then ask again.\n")
            return
        }
        let width =
            RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings).width ?? Int.max
        let lines = table.lines(width: width, limit: Int(argument) ?? 50)
        context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
