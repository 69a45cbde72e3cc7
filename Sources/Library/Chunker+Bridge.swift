/// Paragraphs that run on from one PDF page to the next. Each page is chunked on its own, so that every
/// chunk cites one page; a sentence cut by the page break would then be found only in halves. When a page's
/// text does not end a sentence and the next segment is the next page, the page's last paragraph and the
/// next page's first one (at most half a chunk of each, cut at a word) make one more chunk, which cites
/// both pages.
extension Chunker {
    /// What may close a sentence, and what may follow its full stop (quotes, brackets).
    static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", ":", "…"]
    static let closers: Set<Unicode.Scalar> = ["\"", "'", "”", "’", ")", "]", "»"]

    /// The range of the chunk bridging `first` and `next`, or nil when they do not share a paragraph.
    func bridge(_ scalars: [Unicode.Scalar], _ first: ExtractedDocument.Segment, _ next: ExtractedDocument.Segment)
        -> Range<Int>?
    {
        guard let page = first.page, next.page == page + 1, first.end > first.start, next.end > next.start else {
            return nil
        }
        var last = first.end - 1
        while last > first.start, Self.closers.contains(scalars[last]) { last -= 1 }
        guard !Self.sentenceEnds.contains(scalars[last]) else { return nil }
        let half = max(size / 2, 1)
        // The last paragraph of the page: after its last blank line, at most half a chunk.
        var lower = first.start
        var index = first.end - 1
        while index > first.start {
            if scalars[index] == "\n", scalars[index - 1] == "\n" {
                lower = index + 1
                break
            }
            index -= 1
        }
        if first.end - lower > half {
            lower = first.end - half
            while lower < first.end, !scalars[lower - 1].properties.isWhitespace { lower += 1 }
        }
        // The first paragraph of the next page: up to its first blank line, at most half a chunk.
        var upper = next.end
        index = next.start
        while index + 1 < next.end {
            if scalars[index] == "\n", scalars[index + 1] == "\n" {
                upper = index
                break
            }
            index += 1
        }
        if upper - next.start > half {
            upper = next.start + half
            while upper > next.start, !scalars[upper].properties.isWhitespace { upper -= 1 }
        }
        let range = trimmed(scalars, lower..<upper)
        // Both sides must keep some text, or there is nothing to join.
        guard range.lowerBound < first.end, range.upperBound > next.start else { return nil }
        return range
    }
}
