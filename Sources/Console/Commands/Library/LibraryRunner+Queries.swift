import Foundation
import Library
import ResponsesAPI
import Untrusted

/// `library search|list|show|remove|stats|ask`.
extension LibraryRunner {
    /// Hits with rank, score, where and a snippet (matched words bold on a terminal), or JSON.
    public func search(
        _ query: String, k: Int, filter: LibraryStore.SearchFilter, json: Bool,
        options: LibraryOptions = LibraryOptions()
    ) async -> ExitStatus {
        await withService(options) { service in
            let result = try await service.search(query, k: k, filter: filter)
            if let notice = result.notice { diagnostics.write("note: \(notice)\n") }
            let hits = result.hits
            if json {
                output.write(JSONValue.array(hits.map(Self.json)).prettyPrinted() + "\n")
                return .success
            }
            guard !hits.isEmpty else {
                output.write("No passage matches \"\(query)\".\n")
                return .success
            }
            let bold = (output as? FileDescriptorOutput)?.isTerminal == true && environment["NO_COLOR"] == nil
            for (rank, hit) in hits.enumerated() {
                let head = String(format: "%2d. ", rank + 1)
                let score = String(format: "%.2f", hit.score)
                if bold {
                    output.write(
                        "\(head)\(hit.location)  (\(score))\n    \(Self.snippet(hit.snippet, bold: true))\n"
                            as TerminalText)
                } else {
                    output.write(
                        "\(head)\(hit.location)  (\(score))\n    \(Self.snippet(hit.snippet, bold: false).text)\n")
                }
            }
            return .success
        }
    }

    /// A hit's snippet on one line, its match marks (`SearchHit.markStart`, `markEnd`) as bold on a terminal
    /// or left out, the document's text between them cleaned when `bold` (a terminal), exact otherwise. Split
    /// by Unicode scalar: a mark followed by a combining mark is still a mark.
    static func snippet(_ snippet: String, bold: Bool) -> TerminalText {
        var result = TerminalText.empty
        var piece = String.UnicodeScalarView()
        func flush() {
            result += bold ? TerminalText(String(piece)) : TerminalText(composed: String(piece))
            piece = String.UnicodeScalarView()
        }
        for scalar in snippet.unicodeScalars {
            switch scalar {
            case "\u{2}":
                flush()
                if bold { result += "\u{1B}[1m" }
            case "\u{3}":
                flush()
                if bold { result += "\u{1B}[0m" }
            case "\n": piece.append(" ")
            default: piece.append(scalar)
            }
        }
        flush()
        return result
    }

    static func json(_ hit: SearchHit) -> JSONValue {
        [
            "path": .string(hit.path), "title": hit.title.map(JSONValue.string) ?? .null,
            "type": .string(hit.type.rawValue),
            "page": hit.page.map(JSONValue.integer) ?? .null, "end_page": hit.endPage.map(JSONValue.integer) ?? .null,
            "heading": hit.heading.map(JSONValue.string) ?? .null,
            "chunk_id": .integer(Int(hit.chunkID)), "start": .integer(hit.start), "end": .integer(hit.end),
            "score": .number(hit.score), "text": .string(hit.text),
            "keyword_rank": hit.keywordRank.map(JSONValue.integer) ?? .null,
            "keyword_score": hit.keywordScore.map(JSONValue.number) ?? .null,
            "semantic_rank": hit.semanticRank.map(JSONValue.integer) ?? .null,
            "semantic_score": hit.semanticScore.map(JSONValue.number) ?? .null,
            "why": hit.explanation.map(Self.json) ?? .null,
        ]
    }

    /// Why hybrid search ranked a hit where it did: each ranking's rank, score, scaled score and weight, and
    /// what moved the weights.
    static func json(_ explanation: RankingExplanation) -> JSONValue {
        func part(_ part: RankingExplanation.Part?) -> JSONValue {
            guard let part else { return .null }
            return [
                "rank": .integer(part.rank), "score": .number(part.score), "normalised": .number(part.normalised),
                "weight": .number(part.weight),
            ]
        }
        return [
            "fusion": .string(explanation.method == .convex ? "convex" : "reciprocal_rank"),
            "keyword": part(explanation.keyword), "semantic": part(explanation.semantic),
            "reasons": .array(explanation.reasons.map(JSONValue.string)),
        ]
    }

    public func list(json: Bool) async -> ExitStatus {
        await withStore { store in
            let documents = try await store.documents()
            if json {
                output.write(
                    JSONValue.array(
                        documents.map { document in
                            [
                                "path": .string(document.path), "title": document.title.map(JSONValue.string) ?? .null,
                                "type": .string(document.type.rawValue), "size": .integer(document.size),
                                "sha256": .string(document.sha256),
                                "pages": document.pages.map(JSONValue.integer) ?? .null,
                                "chunks": .integer(document.chunkCount), "status": .string(document.status.rawValue),
                                "error": document.error.map(JSONValue.string) ?? .null,
                            ]
                        }
                    ).prettyPrinted() + "\n")
                return .success
            }
            guard !documents.isEmpty else {
                output.write("The library is empty: openresponses library add PATH... adds files or folders.\n")
                return .success
            }
            for document in documents {
                let detail =
                    document.status == .failed
                    ? "failed: \(document.error ?? "")"
                    : "\(document.type.rawValue), \(document.chunkCount) chunks"
                        + (document.pages.map { ", \($0) pages" } ?? "")
                output.write("\(document.path)  \(detail)\n")
            }
            return .success
        }
    }

    public func show(_ path: String) async -> ExitStatus {
        await withStore { store in
            let full = URL(fileURLWithPath: path).standardizedFileURL.path
            guard let (document, chunks, _) = try await store.chunks(ofDocumentAt: full) else {
                throw ConsoleError("\(full) is not in the library (library list shows what is)", exitStatus: .usage)
            }
            output.write(
                "\(document.path)\n  \(document.displayName) · \(document.type.rawValue) · \(document.size) bytes · sha256 \(document.sha256.prefix(12))…\n"
            )
            for chunk in chunks {
                let pages = chunk.page.map { page in chunk.endPage.map { "pp. \(page)–\($0) " } ?? "p. \(page) " }
                let place =
                    (pages ?? "") + (chunk.headings.isEmpty ? "" : "› \(chunk.headings.joined(separator: " › ")) ")
                let preview = chunk.text.replacingOccurrences(of: "\n", with: " ").prefix(80)
                output.write("  #\(chunk.ordinal) \(place)[\(chunk.start)..<\(chunk.end)] \(preview)\n")
            }
            return .success
        }
    }

    public func remove(_ patterns: [String]) async -> ExitStatus {
        await withStore { store in
            var removed = 0
            for pattern in patterns {
                let full = pattern.hasPrefix("/") ? pattern : FileManager.default.currentDirectoryPath + "/" + pattern
                let paths = try await store.remove(matching: URL(fileURLWithPath: full).standardizedFileURL.path)
                for path in paths { output.write("removed \(path)\n") }
                if paths.isEmpty { diagnostics.write("error: \(pattern): nothing in the library matches\n") }
                removed += paths.count
            }
            if removed > 0 { await store.settle() }
            return removed > 0 ? .success : .usage
        }
    }

    public func stats() async -> ExitStatus {
        await withStore { store in
            let stats = try await store.statistics()
            for row in stats.documentsByType {
                output.write(
                    "\(row.type): \(row.documents) document\(row.documents == 1 ? "" : "s")"
                        + (row.pages > 0 ? ", \(row.pages) pages" : "") + "\n")
            }
            output.write("chunks: \(stats.chunks)\nindex: \(stats.bytes / 1024) KB in \(store.path)\n")
            if !stats.failures.isEmpty {
                output.write("failed: \(stats.failures.count)\n")
                for failure in stats.failures { output.write("  \(failure.path): \(failure.error)\n") }
            }
            return .success
        }
    }
}
