import Foundation
import Inspector
import ResponsesAPI
import Workbench

extension AskRunner {
    /// The turn's input: the prompt, then what was piped, measured before anything is sent. Text is appended
    /// as context once it is under `console.max_input_tokens` (or `--allow-large-input` says so); an image or
    /// a PDF goes beside the prompt as a file; other bytes are refused with their size and kind. Nil when
    /// there is neither a prompt nor anything piped.
    func input(_ options: AskOptions, settings: TurnSettings) throws(InputRefusal) -> JSONValue? {
        let prompt = options.prompt?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
        guard var bytes = options.stdin?.take(), !bytes.isEmpty else { return prompt.map(JSONValue.string) }
        let inlineKB = settings.console["inline_attachments_kb"]?.intValue
        let check = options.allowLargeInput || options.dryRun ? nil : guardrail(settings)
        let classified = try PipedInput.classify(
            bytes, inlineLimit: inlineKB.map { $0 * 1024 } ?? Attachment.defaultInlineLimit
        ) { (count: Int) throws(InputRefusal) in
            try check?.guard.check(byteCount: count, source: "stdin", pricePerMillion: check?.price)
        }
        bytes = Data()  // the text is decoded: the bytes go now, not when the turn ends
        switch classified {
        case .file(let file):
            return file.message(prompt: prompt)
        case .text(let text):
            return Self.joined(prompt: prompt, piped: text)
        }
    }

    /// The prompt, a blank line and the piped text without its leading and trailing line breaks, built
    /// once at its final size (piped text can be tens of megabytes: no intermediate copies).
    static func joined(prompt: String?, piped text: String) -> JSONValue? {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, utf8[start] == 0x0A || utf8[start] == 0x0D { start = utf8.index(after: start) }
        while end > start, utf8[utf8.index(before: end)] == 0x0A || utf8[utf8.index(before: end)] == 0x0D {
            end = utf8.index(before: end)
        }
        let piped = text[start..<end]
        guard let prompt else { return piped.isEmpty ? nil : .string(String(piped)) }
        guard !piped.isEmpty else { return .string(prompt) }
        var joined = ""
        joined.reserveCapacity(prompt.utf8.count + 2 + piped.utf8.count)
        joined += prompt
        joined += "\n\n"
        joined += piped
        return .string(joined)
    }

    /// The input limit for the session's model, and the model's input price, from the shipped table.
    private func guardrail(_ settings: TurnSettings) -> (guard: InputGuard, price: Double?) {
        let price = PriceTable.shipped.price(for: settings.model)
        let limit = InputGuard(
            setting: settings.console["max_input_tokens"]?.intValue, model: settings.model,
            contextWindow: price?.contextWindow)
        return (limit, price?.input)
    }
}

extension AskRunner {
    /// `--detach`: the response created in the background; its id on stdout (its JSON with `--json`) once
    /// the server has accepted it, and how to follow it on stderr.
    func detach(_ session: inout ChatSession, input: JSONValue, printJSON: Bool) async -> ExitStatus {
        do {
            let response = try await session.submitInBackground(input)
            if printJSON {
                context.output.write(response.json.prettyPrinted() + "\n")
            } else {
                context.output.write(response.id + "\n")
            }
            let id = response.id
            context.diagnostics.write(
                "\(id) is \(response.status?.rawValue ?? "accepted") on the server: openresponses jobs wait \(id) "
                    + "waits and prints its answer, attach \(id) follows it, cancel \(id) cancels it\n")
            return .success
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
    }
}
