import Foundation
import Library
import ResponsesAPI
import Workbench

/// `/fragment PATH|URL...` and `/fragments`: documents' text for the next message, read when added (an
/// error names the source and adds nothing), kept by hash, sent once before the message's text and then
/// dropped, as `ask -f` sends them.
extension REPL {
    func fragmentCommand(_ text: String) {
        let sources = text.split(separator: " ").map(String.init)
        guard !sources.isEmpty else { return listFragments() }
        guard !sources.contains("-") else {
            context.diagnostics.write(
                "error: /fragment -: the console's stdin is its prompt; give a path or a URL (ask -f - reads stdin)\n")
            return
        }
        let context = self.context
        let (result, interrupted) = bridge.run { () async -> Result<FragmentBatch, FragmentError> in
            do throws(FragmentError) {
                return .success(try await context.readFragments(sources))
            } catch {
                return .failure(error)
            }
        }
        let batch: FragmentBatch
        switch result {
        case .success(let read): batch = read
        case .failure(let error):
            if !interrupted { context.diagnostics.write("error: /fragment \(error.located); nothing added\n") }
            return
        }
        for fragment in batch.fragments {
            let known = pendingFragments.fragments.first { $0.sha256 == fragment.sha256 }
            pendingFragments.add(fragment)
            if let known {
                context.output.write(
                    "\(fragment.source) has the same text as \(known.source) (sha256 \(known.shortHash)): sent once.\n")
            } else {
                context.output.write(
                    "Added fragment \(fragment.source) (\(fragment.type.rawValue), \(ByteSize.text(fragment.byteCount)), "
                        + "sha256 \(fragment.shortHash)) to the next message.\n")
            }
        }
        for note in batch.notes { context.output.write(note.prefix(1).uppercased() + note.dropFirst() + ".\n") }
        context.keep(batch)
    }

    /// `/fragments`: the pending fragments; `/fragments clear` drops them.
    func fragmentsCommand(_ text: String) {
        switch text {
        case "": listFragments()
        case "clear":
            let count = pendingFragments.fragments.count
            pendingFragments = FragmentBatch()
            context.output.write(
                count == 0 ? "No fragments.\n" : "Dropped \(count) fragment\(count == 1 ? "" : "s").\n")
        default:
            context.diagnostics.write("error: /fragments takes nothing or clear\n")
        }
    }

    private func listFragments() {
        guard !pendingFragments.fragments.isEmpty else {
            context.output.write("No fragments (/fragment PATH|URL adds one to the next message).\n")
            return
        }
        for fragment in pendingFragments.fragments {
            context.output.write(
                "  \(fragment.source)  \(fragment.type.rawValue), \(ByteSize.text(fragment.byteCount)), "
                    + "sha256 \(fragment.shortHash)\n")
        }
    }

    /// The next message's input: its text, after the pending fragments and before the attachments. The
    /// fragments and the text are measured first, as `ask` measures them (`console.max_input_tokens`).
    func message(_ text: String, uploaded: [URL: String]) throws -> JSONValue {
        guard !pendingFragments.fragments.isEmpty else {
            return try Attachment.message(text: text, attachments: attachments, uploaded: uploaded)
        }
        let check = AskRunner.guardrail(settings)
        do throws(InputRefusal) {
            try check.guard.check(
                byteCount: pendingFragments.byteCount + text.utf8.count,
                source: AskRunner.label(pendingFragments) + " and the message", pricePerMillion: check.price)
        } catch {
            var refusal = error
            refusal.hint = "/fragments clear drops them; /set console.max_input_tokens 0 turns the limit off"
            throw refusal
        }
        var parts: [JSONValue] = []
        for attachment in attachments {
            parts.append(try attachment.contentPart(fileID: uploaded[attachment.url]))
        }
        return pendingFragments.message(prompt: text.isEmpty ? nil : text, parts: parts)
    }
}
