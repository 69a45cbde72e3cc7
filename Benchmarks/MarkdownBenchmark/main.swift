import Console
import Foundation

// The Markdown renderer's throughput: a corpus of answers (the test corpus, repeated to SIZE MB) fed
// through MarkdownRenderer as a stream, in the pieces the console gets: token-sized deltas (1-24 bytes,
// as the API streams them) and network reads (16 KB). Prints MB/s for each, colours on, width 100.
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

/// The corpus cut into pieces of `sizes` bytes in turn (at character boundaries).
func pieces(_ corpus: String, _ sizes: [Int]) -> [String] {
    var result: [String] = []
    var current = ""
    var index = 0
    for character in corpus {
        current.append(character)
        if current.utf8.count >= sizes[index % sizes.count] {
            result.append(current)
            current = ""
            index += 1
        }
    }
    if !current.isEmpty { result.append(current) }
    return result
}

func measure(_ name: String, _ corpus: String, _ input: [String]) {
    var renderer = MarkdownRenderer(options: .init(width: 100, colors: true, hyperlinks: false))
    var written = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for piece in input { written += renderer.feed(piece).utf8.count }
        written += renderer.finish().utf8.count
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let mb = Double(corpus.utf8.count) / 1_000_000
    print(String(format: "case=%@ input_MB=%.1f pieces=%d seconds=%.3f throughput_MB_s=%.1f output_MB=%.1f",
                 name, mb, input.count, seconds, mb / seconds, Double(written) / 1_000_000))
}

measure("deltas", corpus, pieces(corpus, [3, 7, 1, 12, 5, 24, 9, 4, 16, 2]))
measure("reads", corpus, pieces(corpus, [16_384]))
