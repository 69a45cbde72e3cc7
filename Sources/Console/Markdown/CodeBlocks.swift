import Foundation

/// The fenced code blocks of a Markdown text, in order: what `/copy code N` and `/save code N` take.
/// Fences follow the renderer's rules (three or more backticks or tildes, closed by at least as many of
/// the same); an unclosed fence runs to the end.
struct CodeBlocks {
    struct Block: Equatable {
        var language: String
        var code: String
    }

    static func of(_ markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (marker: Character, count: Int, indent: Int, language: String, lines: [Substring])?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            let marker = rest.first
            let count = marker.map { m in rest.prefix { $0 == m }.count } ?? 0
            if var current = open {
                if marker == current.marker, count >= current.count, rest.dropFirst(count).allSatisfy({ $0 == " " }) {
                    blocks.append(Block(language: current.language, code: current.lines.joined(separator: "\n")))
                    open = nil
                } else {
                    current.lines.append(line.dropFirst(min(indent, current.indent)))
                    open = current
                }
            } else if let marker, marker == "`" || marker == "~", count >= 3 {
                let info = rest.dropFirst(count).trimmingCharacters(in: .whitespaces)
                guard !(marker == "`" && info.contains("`")) else { continue }
                open = (marker, count, indent, String(info.split(separator: " ").first ?? ""), [])
            }
        }
        if let current = open { blocks.append(Block(language: current.language, code: current.lines.joined(separator: "\n"))) }
        return blocks
    }
}
