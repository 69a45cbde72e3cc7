import Foundation
import Markdown

// The Markdown renderer's throughput: a corpus of answers (the test corpus, repeated to SIZE MB) fed
// through MarkdownRenderer as a stream, in the pieces the console gets: token-sized deltas (1-24 bytes,
// as the API streams them, the unfinished line settled every 8 of them, as one network read brings
// several) and 16 KB pieces. Prints MB/s for each, colours on, width 100.
//   openresponses-markdown-bench MB FILE.md...
let arguments = CommandLine.arguments
guard arguments.count >= 3, let megabytes = Double(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: openresponses-markdown-bench MB FILE.md...\n".utf8))
    exit(2)
}
var sample = ""
for path in arguments.dropFirst(2) {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
        exit(1)
    }
    // Each file ends its blocks (an open fence is closed), so the repeats do not nest.
    sample += text + (text.components(separatedBy: "```").count % 2 == 0 ? "\n```\n" : "") + "\n\n"
}
let target = Int(megabytes * 1_000_000)
var building = ""
building.reserveCapacity(target + sample.utf8.count)
while building.utf8.count < target { building += sample }
let corpus = building

/// The corpus cut into pieces of `sizes` bytes in turn (moved forward to the next character boundary).
func pieces(_ corpus: String, _ sizes: [Int]) -> [String] {
    let bytes = Array(corpus.utf8)
    var result: [String] = []
    var start = 0
    var index = 0
    while start < bytes.count {
        var end = min(start + sizes[index % sizes.count], bytes.count)
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        result.append(String(decoding: bytes[start..<end], as: UTF8.self))
        start = end
        index += 1
    }
    return result
}

/// Feeds `input` as the console does, settling the unfinished line once per network read (here every 8
/// pieces); returns the bytes written. (A plain function: the loop's state is not captured by a closure.)
func render(
    _ input: [String], _ renderer: inout MarkdownRenderer, _ out: inout [UInt8],
    keeping kept: UnsafeMutablePointer<[UInt8]>?
) -> Int {
    var written = 0
    for index in input.indices {
        renderer.feed(input[index], into: &out)
        if index % 8 == 7 {
            renderer.settle(into: &out)
            written += out.count
            kept?.pointee.append(contentsOf: out)
            out.removeAll(keepingCapacity: true)
        }
    }
    renderer.finish(into: &out)
    written += out.count
    kept?.pointee.append(contentsOf: out)
    out.removeAll(keepingCapacity: true)
    return written
}

func measure(_ name: String, _ corpus: String, _ input: [String]) {
    var renderer = MarkdownRenderer(options: .init(width: 100, colors: true, hyperlinks: false))
    // MARKDOWN_BENCH_OUT=PATH keeps what was rendered (to compare two builds' output), outside the timing.
    let keep = ProcessInfo.processInfo.environment["MARKDOWN_BENCH_OUT"].map { "\($0).\(name)" }
    var kept: [UInt8] = []
    // The console's way: the renderer appends to a byte buffer, written out (here: counted) and emptied.
    var out: [UInt8] = []
    out.reserveCapacity(1 << 17)
    let clock = ContinuousClock()
    let start = clock.now
    let written = withUnsafeMutablePointer(to: &kept) {
        render(input, &renderer, &out, keeping: keep != nil ? $0 : nil)
    }
    let elapsed = clock.now - start
    if let keep { FileManager.default.createFile(atPath: keep, contents: Data(kept)) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let mb = Double(corpus.utf8.count) / 1_000_000
    print(
        String(
            format: "case=%@ input_MB=%.1f pieces=%d seconds=%.3f throughput_MB_s=%.1f output_MB=%.1f",
            name, mb, input.count, seconds, mb / seconds, Double(written) / 1_000_000))
}

let only = ProcessInfo.processInfo.environment["MARKDOWN_BENCH_CASE"]
if only == nil || only == "deltas" { measure("deltas", corpus, pieces(corpus, [3, 7, 1, 12, 5, 24, 9, 4, 16, 2])) }
if only == nil || only == "reads" { measure("reads", corpus, pieces(corpus, [16_384])) }
