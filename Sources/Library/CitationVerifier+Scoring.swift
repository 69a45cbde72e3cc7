import Foundation

/// How well a passage supports a sentence: the words' share and the closest window's cosine, combined.
extension CitationVerifier {
    struct Score {
        var combined: Double
        var similarity: Double?
        var overlap: Double
        /// The passage's number, from 1.
        var passage: Int
        var snippet: String
    }

    /// The sentences and passages of one answer, their terms and (with an embedder) their vectors, made once:
    /// every sentence and every window embedded in one batch.
    struct Scorer {
        var sentenceTerms: [Set<String>]
        var passageTerms: [Set<String>]
        var windows: [[String]]
        var sentenceVectors: [[Float]] = []
        var windowVectors: [[[Float]]] = []
        var semanticWeight: Double

        init(verifier: CitationVerifier, sentences: [String], passages: [String]) async throws {
            sentenceTerms = sentences.map { Set(CitationVerifier.terms($0)) }
            passageTerms = passages.map { Set(CitationVerifier.terms($0)) }
            windows = passages.map {
                CitationVerifier.windows($0, words: verifier.windowWords, atMost: verifier.maxWindows)
            }
            semanticWeight = verifier.semanticWeight
            guard let embedder = verifier.embedder, !sentences.isEmpty, !passages.isEmpty else { return }
            let vectors = try await embedder.embed(sentences + windows.flatMap { $0 }).map(LibraryStore.unit)
            sentenceVectors = Array(vectors.prefix(sentences.count))
            var next = sentences.count
            for passage in windows {
                windowVectors.append(Array(vectors[next..<(next + passage.count)]))
                next += passage.count
            }
        }

        /// Sentence `sentence` against passage `passage` (both from 0).
        func score(sentence: Int, passage: Int) -> Score {
            let terms = sentenceTerms[sentence]
            let overlap =
                terms.isEmpty ? 0 : Double(terms.intersection(passageTerms[passage]).count) / Double(terms.count)
            guard !sentenceVectors.isEmpty else {
                // The words alone: the window holding the most of the sentence's words is the snippet.
                let snippet = windows[passage].max {
                    Set(CitationVerifier.terms($0)).intersection(terms).count
                        < Set(CitationVerifier.terms($1)).intersection(terms).count
                }
                return Score(
                    combined: overlap, similarity: nil, overlap: overlap, passage: passage + 1, snippet: snippet ?? "")
            }
            let cosines = windowVectors[passage].map { LibraryStore.dot(sentenceVectors[sentence], $0) }
            let best = cosines.indices.max { cosines[$0] < cosines[$1] } ?? 0
            let similarity = cosines.isEmpty ? 0 : cosines[best]
            // A sentence with no content word ("It is so [1].") is judged by meaning alone.
            let combined =
                terms.isEmpty ? similarity : semanticWeight * similarity + (1 - semanticWeight) * overlap
            return Score(
                combined: combined, similarity: similarity, overlap: overlap, passage: passage + 1,
                snippet: windows[passage].isEmpty ? "" : windows[passage][best])
        }

    }

    /// A passage as windows of `words` words, overlapping by half, at most `limit` of them (spread further
    /// apart when the passage is long); a passage of `words` words or fewer is one window.
    static func windows(_ passage: String, words: Int, atMost limit: Int) -> [String] {
        let all = passage.split(whereSeparator: \.isWhitespace)
        guard all.count > words else { return all.isEmpty ? [] : [all.joined(separator: " ")] }
        let count = max(limit, 2)
        let stride = max(words / 2, (all.count - words + count - 2) / (count - 1))
        var result: [String] = []
        var start = 0
        while result.count < count {
            let end = min(start + words, all.count)
            result.append(all[start..<end].joined(separator: " "))
            if end == all.count { break }
            start = min(start + stride, all.count - words)
        }
        return result
    }

    /// The content words of `text` as the library's keyword index reads them: lower case, diacritics removed,
    /// runs of letters and digits, then porter's stem; English function words left out.
    static func terms(_ text: String) -> [String] {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).compactMap { word in
            let word = String(word)
            guard word.count >= 2 || word.first?.isNumber == true, !FTSQuery.stopWords.contains(word),
                !AnswerBuilder.stopWords.contains(word)
            else { return nil }
            return PorterStemmer.stem(word)
        }
    }
}
