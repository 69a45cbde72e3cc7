import Foundation

/// Collects paragraphs from WordprocessingML: `w:p` with its `w:pStyle`, the text of `w:t`, tabs and
/// breaks; a table row (`w:tr`) becomes one paragraph of its cells.
struct WordprocessingReader {
    private(set) var paragraphs: [DOCXExtractor.Paragraph] = []
    /// Bytes (UTF-8) of text taken so far, tabs and breaks counted: what the text cap is checked against.
    private(set) var received = 0
    private var text = ""
    private var style: String?
    private var inText = false
    private var tableDepth = 0
    private var row: [String]?

    /// An element begins; `style` is a `w:pStyle`'s `w:val`.
    mutating func start(_ name: String, style: String?) {
        switch name {
        case "w:p":
            text = ""
            self.style = nil
        case "w:pStyle": self.style = style
        case "w:t": inText = true
        case "w:tab":
            text += "\t"
            received += 1
        case "w:br", "w:cr":
            text += "\n"
            received += 1
        case "w:tbl": tableDepth += 1
        case "w:tr": row = []
        default: break
        }
    }

    mutating func characters(_ string: String) {
        guard inText else { return }
        text += string
        received += string.utf8.count
    }

    mutating func end(_ name: String) {
        switch name {
        case "w:t": inText = false
        case "w:p":
            let paragraph = text.trimmingCharacters(in: .whitespaces)
            if tableDepth > 0, row != nil {
                row?.append(paragraph)
            } else {
                paragraphs.append(.init(text: paragraph, headingLevel: Self.level(of: style)))
            }
        case "w:tr":
            if let cells = row {
                paragraphs.append(.init(text: cells.filter { !$0.isEmpty }.joined(separator: " | "), headingLevel: nil))
            }
            row = nil
        case "w:tbl": tableDepth -= 1
        default: break
        }
    }

    static func level(of style: String?) -> Int? {
        guard let style = style?.lowercased() else { return nil }
        if style == "title" { return 0 }
        guard style.hasPrefix("heading"), let level = Int(style.dropFirst("heading".count)), (1...9).contains(level)
        else { return nil }
        return level
    }
}
