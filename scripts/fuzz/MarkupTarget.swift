// libFuzzer target: the library's Markdown and HTML extraction and its chunker, built by scripts/fuzz.sh with
// the few Library sources they need (not a package target). Any input, read as Markdown and as HTML, gives
// segments inside the text, in order and not overlapping; and every chunk is exactly its slice of the text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for document in [TextExtractor.markdownDocument(text), HTMLExtractor.document(text)] {
        let scalars = Array(document.text.unicodeScalars)
        var previousEnd = 0
        for segment in document.segments {
            precondition(
                segment.start >= previousEnd && segment.start < segment.end && segment.end <= scalars.count,
                "a segment is out of place")
            previousEnd = segment.end
        }
        for chunk in Chunker(size: 64, overlap: 16).chunks(of: document) {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[chunk.start..<chunk.end])
            precondition(String(view) == chunk.text, "a chunk is not its slice of the text")
        }
    }
    return 0
}
