import Foundation

/// The fenced code blocks of a Markdown text, in order: what `/copy code N` and `/save code N` take.
/// Fences are the renderer's (`MarkdownRenderer.Fence`); an unclosed fence runs to the end. Lines end at LF, a CR before it
/// dropped.
public struct CodeBlocks {
    public struct Block: Equatable, Sendable {
        public var language: String
        public var code: String
        /// The fence that opened it, when nothing closed it (the text ends inside it).
        public var unclosedFence: String?
    }

    public static func of(_ markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (marker: UInt8, count: Int, indent: Int, language: String, lines: [String])?
        for raw in Array(markdown.utf8).split(separator: 0x0A, omittingEmptySubsequences: false) {
            let line = raw.last == 0x0D ? raw.dropLast() : raw
            let indent = line.prefix { $0 == 0x20 }.count
            if var current = open {
                if MarkdownRenderer.Fence.closes(line, marker: current.marker, count: current.count) {
                    blocks.append(Block(language: current.language, code: current.lines.joined(separator: "\n")))
                    open = nil
                } else {
                    current.lines.append(String(decoding: line.dropFirst(min(indent, current.indent)), as: UTF8.self))
                    open = current
                }
            } else if let opening = MarkdownRenderer.Fence.opening(line.dropFirst(indent)) {
                let info = String(decoding: line[opening.info], as: UTF8.self)
                open = (opening.marker, opening.count, indent, String(info.split(separator: " ").first ?? ""), [])
            }
        }
        if let current = open {
            blocks.append(
                Block(
                    language: current.language, code: current.lines.joined(separator: "\n"),
                    unclosedFence: String(repeating: Character(Unicode.Scalar(current.marker)), count: current.count)))
        }
        return blocks
    }

    /// `text` with the fence it leaves open closed, so what follows it is not code.
    public static func closingFences(_ text: String) -> String {
        guard let fence = of(text).last?.unclosedFence else { return text }
        return text + (text.hasSuffix("\n") ? "" : "\n") + fence
    }
}
