import Foundation
import ResponsesAPI

/// JSON, JSON Lines and CSV: each value on a line with where it is, so a chunk says what it is about.
/// JSON: `key.path[2].name: value` for every leaf; JSON Lines the same with the line number first
/// (`[3].name: value`); CSV one line per row, each cell with its column's header (`name: Ada; year: 1843`).
///
/// The text can be far larger than the file (a long key repeated on every leaf, a long header on every cell),
/// so the text cap is checked as the text is made, not after.
struct DataExtractor: Sendable {
    var type: DocumentType
    var caps = ResourceCaps()

    func extract(_ url: URL) throws(LibraryError) -> ExtractedDocument {
        let text = try TextExtractor.read(url)
        var builder = CappedBuilder(caps: caps, path: url.path)
        switch type {
        case .json:
            let value: JSONValue
            do {
                value = try JSONValue.parse(text)
            } catch {
                throw LibraryError(path: url.path, "is not JSON: \(error)")
            }
            try Self.flatten(value, path: "", into: &builder)
        case .jsonl:
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let value: JSONValue
                do {
                    value = try JSONValue.parse(String(line))
                } catch {
                    throw LibraryError(path: url.path, "line \(index + 1) is not JSON: \(error)")
                }
                try Self.flatten(value, path: "[\(index + 1)]", into: &builder)
            }
        default:
            let rows = CSVReader.rows(text)
            guard let header = rows.first else { break }
            for row in rows.dropFirst() where !row.allSatisfy(\.isEmpty) {
                let cells = row.enumerated().map { index, cell in
                    let name = index < header.count && !header[index].isEmpty ? header[index] : "column \(index + 1)"
                    return "\(name): \(cell)"
                }
                try builder.append(cells.joined(separator: "; ") + "\n")
            }
        }
        return builder.builder.build()
    }

    static func flatten(_ value: JSONValue, path: String, into builder: inout CappedBuilder) throws(LibraryError) {
        switch value {
        case .object(let object):
            for (key, child) in object {
                try flatten(child, path: path.isEmpty ? key : "\(path).\(key)", into: &builder)
            }
        case .array(let items):
            for (index, child) in items.enumerated() { try flatten(child, path: "\(path)[\(index)]", into: &builder) }
        case .string(let text):
            try builder.append("\(path.isEmpty ? "value" : path): \(text)\n")
        case .null:
            return
        default:
            try builder.append("\(path.isEmpty ? "value" : path): \(value.compactString)\n")
        }
    }

    /// A `DocumentBuilder` that refuses the file once its text passes the text cap.
    struct CappedBuilder {
        var builder = DocumentBuilder()
        let caps: ResourceCaps
        let path: String

        mutating func append(_ piece: String) throws(LibraryError) {
            builder.append(piece)
            let bytes = builder.text.utf8.count
            if bytes > caps.textBytes {
                throw caps.refusal(.text, path: path, "its text passed \(bytes) bytes while it was read")
            }
        }
    }
}

/// RFC 4180 CSV: quoted cells with doubled quotes inside, commas and newlines in quotes, CRLF or LF.
enum CSVReader {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = ""
        var quoted = false
        var iterator = text.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" {
                            cell.append("\"")
                        } else {
                            quoted = false
                            pending = next
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
                continue
            }
            switch character {
            case "\"" where cell.isEmpty: quoted = true
            case ",":
                row.append(cell)
                cell = ""
            case "\n", "\r\n":
                row.append(cell)
                cell = ""
                rows.append(row)
                row = []
            case "\r": continue
            default: cell.append(character)
            }
        }
        if !cell.isEmpty || !row.isEmpty {
            row.append(cell)
            rows.append(row)
        }
        return rows
    }
}
