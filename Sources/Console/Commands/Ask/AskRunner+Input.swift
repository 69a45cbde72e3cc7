import Foundation
import Inspector
import Library
import ResponsesAPI
import Workbench

extension AskRunner {
    /// The turn's input: the fragments (each an `input_text` part before the prompt), the prompt, then what
    /// was piped, measured before anything is sent. Text is appended to the prompt as context once the
    /// fragments and it are under `console.max_input_tokens` (or `--allow-large-input` says so); an image or
    /// a PDF goes beside the prompt as a file; other bytes are refused with their size and kind. Nil when
    /// there is no prompt, no fragment and nothing piped.
    func input(_ options: AskOptions, settings: TurnSettings, fragments: FragmentBatch = FragmentBatch())
        throws(InputRefusal) -> JSONValue?
    {
        let prompt = options.prompt?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
        let check = options.allowLargeInput || options.dryRun ? nil : Self.guardrail(settings)
        let fragmentBytes = fragments.byteCount
        let named = fragments.fragments.isEmpty ? nil : Self.label(fragments)
        guard var bytes = options.stdin?.take(), !bytes.isEmpty else {
            guard let named else { return prompt.map(JSONValue.string) }
            try check?.guard.check(byteCount: fragmentBytes, source: named, pricePerMillion: check?.price)
            return fragments.message(prompt: prompt)
        }
        let inlineKB = settings.console["inline_attachments_kb"]?.intValue
        let classified = try PipedInput.classify(
            bytes, inlineLimit: inlineKB.map { $0 * 1024 } ?? Attachment.defaultInlineLimit
        ) { (count: Int) throws(InputRefusal) in
            try check?.guard.check(
                byteCount: count + fragmentBytes, source: named.map { "stdin and \($0)" } ?? "stdin",
                pricePerMillion: check?.price)
        }
        bytes = Data()  // the text is decoded: the bytes go now, not when the turn ends
        switch classified {
        case .file(let file):
            guard let named else { return file.message(prompt: prompt) }
            try check?.guard.check(byteCount: fragmentBytes, source: named, pricePerMillion: check?.price)
            return fragments.message(prompt: prompt, parts: [file.contentPart])
        case .text(let text):
            let joined = Self.joined(prompt: prompt, piped: text)
            guard named != nil else { return joined }
            return fragments.message(prompt: joined?.stringValue)
        }
    }

    /// "fragment a.md" or "fragments a.md, b.md", for the guard's message.
    static func label(_ batch: FragmentBatch) -> String {
        let sources = batch.fragments.map(\.source)
        return (sources.count == 1 ? "fragment " : "fragments ") + sources.joined(separator: ", ")
    }

    /// `-f`: the fragments, read before anything is sent (`-` takes stdin, which is then not piped input);
    /// a note for each source whose text another already gave.
    func readFragments(_ options: AskOptions) async throws(FragmentError) -> FragmentBatch {
        guard !options.fragments.isEmpty else { return FragmentBatch() }
        let standardInput = options.fragments.contains("-") ? options.stdin?.take() : nil
        let batch = try await context.readFragments(options.fragments, standardInput: standardInput)
        for note in batch.notes { context.diagnostics.write("note: \(note)\n") }
        return batch
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
    static func guardrail(_ settings: TurnSettings) -> (guard: InputGuard, price: Double?) {
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
