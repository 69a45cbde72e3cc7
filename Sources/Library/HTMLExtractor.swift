import Foundation

/// HTML: the text of the body, scripts, styles and other non-content elements dropped, block elements
/// on lines of their own, `<h1>`–`<h6>` starting sections with their heading path, entities decoded,
/// and `<title>` as the title; a `<pre>` keeps its lines, as a fenced code block (```), so that code stays
/// code. A small scanner, not a browser: it never fails on malformed markup.
struct HTMLExtractor: Sendable {
    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        Self.document(try TextExtractor.read(url))
    }

    static let skipped: Set<String> = ["script", "style", "noscript", "template", "svg", "head", "iframe", "object"]
    static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "tr", "table", "section", "article", "header", "footer", "nav", "main",
        "blockquote", "pre", "hr", "dd", "dt", "dl", "figure", "figcaption", "aside", "address", "form", "fieldset",
    ]

    static func document(_ html: String) -> ExtractedDocument {
        var builder = DocumentBuilder()
        var headings: [(level: Int, title: String)] = []
        var title: String?
        var scanner = Scanner(html)
        var skipping: String?
        var pendingHeading: (level: Int, text: String)?
        var inTitle = false
        var titleText = ""
        // The text of the `<pre>` being read, as it is (markup in it dropped, `<br>` a line break).
        var pre: String?
        while let token = scanner.next() {
            switch token {
            case .text(let raw):
                let text = decodeEntities(raw)
                if inTitle {
                    titleText += text
                    continue
                }
                guard skipping == nil else { continue }
                if pre != nil {
                    pre! += text
                    continue
                }
                let collapsed = collapse(text)
                if pendingHeading != nil { pendingHeading!.text += collapsed }
                builder.append(collapsed)
            case .open(let name):
                if name == "title" {
                    inTitle = true
                    continue
                }
                if skipping == nil, skipped.contains(name) {
                    skipping = name
                    continue
                }
                guard skipping == nil else { continue }
                if pre != nil {
                    if name == "br" { pre! += "\n" }
                } else if name == "pre" {
                    pre = ""
                } else if let level = headingLevel(name) {
                    pendingHeading = (level, "")
                    while let last = headings.last, last.level >= level { headings.removeLast() }
                    builder.begin(page: nil, headings: headings.map(\.title))
                } else if name == "td" || name == "th" {
                    builder.append(" | ")
                } else if blocks.contains(name) {
                    builder.append("\n")
                }
            case .close(let name):
                if name == "title" {
                    inTitle = false
                    title = collapse(titleText).trimmingCharacters(in: .whitespaces)
                    continue
                }
                if skipping == name {
                    skipping = nil
                    continue
                }
                guard skipping == nil else { continue }
                if name == "pre", let code = pre {
                    builder.append(fenced(code))
                    pre = nil
                } else if pre != nil {
                    continue
                } else if let level = headingLevel(name), let heading = pendingHeading {
                    let text = heading.text.trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { headings.append((level, text)) }
                    pendingHeading = nil
                    builder.append("\n")
                    // The heading's own text stays in the section it opens, which now carries it.
                    builder.relabel(headings: headings.map(\.title))
                } else if blocks.contains(name) {
                    builder.append("\n")
                }
            }
        }
        if let code = pre { builder.append(fenced(code)) }
        return builder.build(title: title.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A `<pre>`'s text as a fenced block on lines of its own, its lines as they are (less the line break HTML
    /// ignores after `<pre>`, and blank lines at the end), fenced with a marker none of them starts with.
    static func fenced(_ code: String) -> String {
        var lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.first?.isEmpty == true { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        guard !lines.isEmpty else { return "\n" }
        let marker = CodeFence.marker(for: lines)
        return "\n" + ([marker] + lines + [marker]).joined(separator: "\n") + "\n"
    }

    static func headingLevel(_ name: String) -> Int? {
        guard name.count == 2, name.first == "h", let level = Int(String(name.last!)), (1...6).contains(level) else {
            return nil
        }
        return level
    }

    /// Runs of white space as one space (HTML's rendering of text).
    static func collapse(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for character in text {
            if character.isWhitespace {
                if !lastWasSpace { result.append(" ") }
                lastWasSpace = true
            } else {
                result.append(character)
                lastWasSpace = false
            }
        }
        return result
    }

    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "mdash": "—", "ndash": "–",
        "hellip": "…", "copy": "©", "reg": "®", "laquo": "«", "raquo": "»", "rsquo": "’", "lsquo": "‘", "rdquo": "”",
        "ldquo": "“",
    ]

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semicolon]
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map {
                        String(Character($0))
                    }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    decoded = named[String(name)]
                }
                if let decoded {
                    result += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            result += "&"
            rest = after
        }
        return result + rest
    }

    /// Tags (names lower-cased, attributes ignored), text between them; comments and doctypes skipped.
    struct Scanner {
        enum Token {
            case text(String)
            case open(String)
            case close(String)
        }
        let html: [Unicode.Scalar]
        var position = 0

        init(_ html: String) { self.html = Array(html.unicodeScalars) }

        mutating func next() -> Token? {
            guard position < html.count else { return nil }
            if html[position] != "<" {
                let start = position
                while position < html.count, html[position] != "<" { position += 1 }
                return .text(string(start, position))
            }
            if matches("<!--") {
                position = find("-->", from: position + 4).map { $0 + 3 } ?? html.count
                return next()
            }
            let start = position + 1
            let end = find(">", from: start) ?? html.count
            position = min(end + 1, html.count)
            var inner = string(start, end).trimmingCharacters(in: .whitespaces)
            if inner.hasPrefix("!") || inner.hasPrefix("?") { return next() }
            let closing = inner.hasPrefix("/")
            if closing { inner.removeFirst() }
            let name = String(inner.prefix { $0.isLetter || $0.isNumber }).lowercased()
            guard !name.isEmpty else { return .text(string(start - 1, position)) }
            if !closing, inner.hasSuffix("/") { return name == "br" ? .open(name) : next() }
            return closing ? .close(name) : .open(name)
        }

        func matches(_ literal: String) -> Bool {
            matches(Array(literal.unicodeScalars), at: position)
        }

        func matches(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
            guard index + scalars.count <= html.count else { return false }
            for offset in scalars.indices where html[index + offset] != scalars[offset] { return false }
            return true
        }

        func find(_ literal: String, from start: Int) -> Int? {
            let scalars = Array(literal.unicodeScalars)
            var index = start
            while index + scalars.count <= html.count {
                if html[index] == scalars[0], matches(scalars, at: index) { return index }
                index += 1
            }
            return nil
        }

        func string(_ start: Int, _ end: Int) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: html[start..<max(start, end)])
            return String(view)
        }
    }
}
