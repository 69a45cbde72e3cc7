import Foundation
import Inspector
import Markdown
import ResponsesAPI
import Untrusted

/// Taking an answer or a conversation away: `/copy` (the clipboard, through OSC 52, which works in tmux
/// and over SSH), `/save` (a file) and `/export` (the conversation from the inspector's records).
extension REPL {
    /// `/copy` the last answer; `/copy code [N]` its Nth code block (the first by default).
    func copyCommand(_ words: [String]) {
        guard let (text, what) = answerPart(words, usage: "usage: /copy [code [N]]") else { return }
        context.output.write(Self.osc52(text, inTmux: context.environment["TMUX"] != nil))
        context.output.write("Copied \(what) (\(text.count.formatted()) characters) to the clipboard.\n")
    }

    /// `/save PATH` the last answer; `/save code [N] PATH` its Nth code block (the first by default).
    func saveCommand(_ words: [String]) {
        guard let path = words.last, words != ["code"],
            words.count == 1 || (words.first == "code" && (2...3).contains(words.count))
        else {
            context.diagnostics.write("usage: /save PATH | /save code [N] PATH\n")
            return
        }
        // `/save code 2`: a block's number where the file's name should be.
        if words.count == 2, words.first == "code", Int(path) != nil {
            context.diagnostics.write(
                "usage: /save code [N] PATH (\(path) is taken as a block's number: give the file's name after it)\n")
            return
        }
        guard let (text, what) = answerPart(Array(words.dropLast()), usage: "usage: /save PATH | /save code [N] PATH")
        else { return }
        do throws(ConsoleError) {
            let url = try OutputFile.write(text.hasSuffix("\n") ? text : text + "\n", to: path)
            context.output.write("Saved \(what) to \(url.path).\n")
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
        }
    }

    /// `/export PATH [--format md|json]`: this conversation, as `history export` writes it (JSON when
    /// PATH ends in .json).
    func exportCommand(_ words: [String]) {
        var words = words
        var format: HistoryRunner.Format?
        if let flag = words.firstIndex(of: "--format"), flag + 1 < words.count {
            format = HistoryRunner.Format(rawValue: words[flag + 1])
            guard format != nil else {
                context.diagnostics.write("error: --format takes md or json, not \(words[flag + 1])\n")
                return
            }
            words.removeSubrange(flag...(flag + 1))
        }
        guard words.count == 1, let path = words.first else {
            context.diagnostics.write("usage: /export PATH [--format md|json]\n")
            return
        }
        guard let recorder = context.recorder else {
            context.diagnostics.write("error: the inspector is off, so there is nothing to export\n")
            return
        }
        let chosen = format ?? (path.lowercased().hasSuffix(".json") ? .json : .md)
        let session = conversation.sessionID
        let runner = HistoryRunner(context: context)
        let target = (path as NSString).expandingTildeInPath
        _ = bridge.run { () async -> ExitStatus in
            // What the last turn sent is written before it is read back.
            _ = await recorder.waitUntilIdle()
            return await runner.export(session, format: chosen, to: target)
        }
    }

    /// The last answer, or its code block `N` (`code [N]`), and how to name it; nil (said) when there is none.
    func answerPart(_ words: [String], usage: String) -> (String, String)? {
        guard let text = lastOutcome?.text, !text.isEmpty else {
            context.diagnostics.write("error: no answer yet in this session\n")
            return nil
        }
        switch words.first {
        case nil:
            return (text, "the last answer")
        case "code" where words.count <= 2:
            let blocks = CodeBlocks.of(text)
            guard !blocks.isEmpty else {
                context.diagnostics.write("error: the last answer has no code block\n")
                return nil
            }
            guard let number = words.count == 2 ? Int(words[1]) : 1, (1...blocks.count).contains(number) else {
                context.diagnostics.write(
                    "error: the last answer has \(blocks.count) code block\(blocks.count == 1 ? "" : "s") (1-\(blocks.count)), not \(words[1])\n"
                )
                return nil
            }
            let language = blocks[number - 1].language
            return (blocks[number - 1].code, "code block \(number)" + (language.isEmpty ? "" : " (\(language))"))
        default:
            context.diagnostics.write(usage + "\n")
            return nil
        }
    }

    /// OSC 52 "set the clipboard": the text base64-encoded; inside tmux also wrapped for passthrough, for
    /// when tmux's own clipboard handling is off.
    /// The text is base64 in it, so nothing of it can be a control character.
    static func osc52(_ text: String, inTmux: Bool) -> TerminalText {
        let sequence = "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
        guard inTmux else { return TerminalText(composed: sequence) }
        return TerminalText(
            composed: sequence + "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}")
                + "\u{1B}\\")
    }
}
