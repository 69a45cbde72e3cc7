// Decode throughput of the wire layer: SSE framing, event decoding and response accumulation over a
// generated stream fed in 16 KiB chunks from memory (no network), and the memory the decoding itself adds
// (peak resident size during decoding less the resident size once the input was generated).
//
//   openresponses-decode-bench deltas [MB]   MB megabytes on the wire of ordinary output_text.delta events
//                                            (a few words each)
//   openresponses-decode-bench answer [MB]   an answer of MB megabytes of text in 32 KB deltas, with the four
//                                            terminal events that repeat it whole (about 5.2 × MB on the wire,
//                                            as ../shared/notes/measured.md describes a real 50 MB answer)
//   openresponses-decode-bench sse [MB]      the delta stream through SSEDecoder alone
//   openresponses-decode-bench events [MB]   the delta stream through SSEDecoder and ResponseStreamEvent (typed
//                                            events), without the accumulator
//
// Prints one line of figures; Benchmarks/decode.sh runs the cases in separate processes (so each peak is
// its own) and takes medians.
import Foundation
import ResponsesAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first ?? "deltas"
let megabytes = arguments.dropFirst().first.flatMap(Double.init) ?? 50
let chunkSize = 16 * 1024

/// Produces the stream's bytes a chunk at a time, so the generator itself holds next to nothing.
struct StreamSource {
    let targetTextBytes: Int
    let targetWireBytes: Int
    let wordsPerDelta: Int
    let withTerminalText: Bool
    private var wireBytes = 0
    private var pending: [UInt8] = []
    private var sequence = 0
    private var textBytes = 0
    private var stage = 0
    private let words = [
        "stream ", "delta ", "tokens ", "flow ", "quickly ", "over ", "the ", "wire ", "héllo ", "wörld ",
    ]
    private var wordIndex = 0

    init(targetTextBytes: Int, targetWireBytes: Int, wordsPerDelta: Int, withTerminalText: Bool) {
        self.targetTextBytes = targetTextBytes
        self.targetWireBytes = targetWireBytes
        self.wordsPerDelta = wordsPerDelta
        self.withTerminalText = withTerminalText
    }

    mutating func frame(_ type: String, _ body: String) {
        let frame = "event: \(type)\ndata: {\"type\":\"\(type)\",\"sequence_number\":\(sequence),\(body)}\n\n"
        pending.append(contentsOf: frame.utf8)
        wireBytes += frame.utf8.count
        sequence += 1
    }

    /// The whole answer text, regenerated (only used for the terminal events of the `answer` case).
    func wholeText() -> String {
        var text = ""
        text.reserveCapacity(textBytes)
        var index = 0
        var size = 0
        while size < textBytes {
            let word = words[index % words.count]
            text += word
            size += word.utf8.count
            index += 1
        }
        return text
    }

    /// The whole stream.
    mutating func all() -> [UInt8] {
        while stage < 3 { step() }
        return pending
    }

    private mutating func step() {
        switch stage {
        case 0:
            let response =
                #"{"id":"resp_bench","object":"response","status":"in_progress","model":"bench","output":[]}"#
            frame("response.created", #""response":\#(response)"#)
            frame("response.in_progress", #""response":\#(response)"#)
            frame(
                "response.output_item.added",
                #""output_index":0,"item":{"id":"msg_bench","type":"message","status":"in_progress","role":"assistant","content":[]}"#
            )
            frame(
                "response.content_part.added",
                #""item_id":"msg_bench","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}"#
            )
            stage = 1
        case 1:
            // Deltas of a few words each, as models send them.
            var delta = ""
            for _ in 0..<wordsPerDelta {
                delta += words[wordIndex % words.count]
                wordIndex += 1
            }
            frame(
                "response.output_text.delta",
                #""item_id":"msg_bench","output_index":0,"content_index":0,"delta":"\#(delta)","logprobs":[],"obfuscation":"a1b2c3""#
            )
            textBytes += delta.utf8.count
            if textBytes >= targetTextBytes || wireBytes >= targetWireBytes { stage = 2 }
        case 2:
            if withTerminalText {
                let text = wholeText()
                let message =
                    #"{"id":"msg_bench","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"\#(text)","annotations":[]}]}"#
                frame(
                    "response.output_text.done",
                    #""item_id":"msg_bench","output_index":0,"content_index":0,"text":"\#(text)","logprobs":[]"#)
                frame(
                    "response.content_part.done",
                    #""item_id":"msg_bench","output_index":0,"content_index":0,"part":{"type":"output_text","text":"\#(text)","annotations":[]}"#
                )
                frame("response.output_item.done", #""output_index":0,"item":\#(message)"#)
                frame(
                    "response.completed",
                    #""response":{"id":"resp_bench","object":"response","status":"completed","model":"bench","output":[\#(message)],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}"#
                )
            } else {
                frame(
                    "response.output_text.done",
                    #""item_id":"msg_bench","output_index":0,"content_index":0,"text":"(elided)","logprobs":[]"#)
                frame(
                    "response.completed",
                    #""response":{"id":"resp_bench","object":"response","status":"completed","model":"bench","output":[],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}"#
                )
            }
            stage = 3
        default:
            break
        }
    }
}

#if canImport(Glibc)
    let selfUsage = RUSAGE_SELF.rawValue
#else
    let selfUsage = RUSAGE_SELF
#endif

/// A line of /proc/self/status in megabytes (Linux): `VmRSS` now, `VmHWM` the peak.
func statusMB(_ field: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes / 1024
}

func peakResidentMB() -> Double {
    var usage = rusage()
    getrusage(selfUsage, &usage)
    #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1_048_576
    #else
        return Double(usage.ru_maxrss) / 1024
    #endif
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(selfUsage, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

let target = Int(megabytes * 1_048_576)
var source =
    mode == "answer"
    ? StreamSource(targetTextBytes: target, targetWireBytes: .max, wordsPerDelta: 4000, withTerminalText: true)
    : StreamSource(targetTextBytes: .max, targetWireBytes: target, wordsPerDelta: 3, withTerminalText: false)
var decoder = SSEDecoder()
// As the client decodes a stream: the long strings the final events repeat are decoded once.
let longStrings = LongStrings()
var accumulator = ResponseAccumulator()
var events = 0
var deltaBytes = 0
var hint = 0
var failures = 0
var finalSeen = false
var bytes = 0
let decodeEvents = mode != "sse"
let accumulate = mode == "deltas" || mode == "answer"
let input = source.all()
let residentBefore = statusMB("VmRSS") ?? 0
let peakWasReset = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
let cpuStart = cpuSeconds()
let start = ContinuousClock.now
input.withUnsafeBytes { whole in
    var offset = 0
    while offset < whole.count {
        let end = min(offset + chunkSize, whole.count)
        bytes += end - offset
        decoder.longLineHint = hint
        decoder.push(UnsafeRawBufferPointer(rebasing: whole[offset..<end])) { sse in
            events += 1
            guard decodeEvents else { return }
            do {
                let event = try ResponseStreamEvent(sse, longStrings: longStrings)
                if case .outputTextDelta(let delta) = event.kind {
                    deltaBytes += delta.delta.utf8.count
                    // As the client does: room for a final event that repeats the text (given before each push).
                    hint = deltaBytes + deltaBytes / 16 + 4096
                }
                if accumulate { accumulator.apply(event) } else if event.isTerminal { finalSeen = true }
            } catch {
                failures += 1
            }
        }
        offset = end
    }
}
decoder.finish { _ in events += 1 }
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let cpu = cpuSeconds() - cpuStart
let megabytesOnWire = Double(bytes) / 1_048_576
print(
    String(
        format:
            "mode=%@ wire_MB=%.1f events=%d seconds=%.3f cpu_s=%.3f throughput_MB_s=%.1f peak_MB=%.1f decoding_added_MB=%.1f decode_failures=%d final=%@",
        mode, megabytesOnWire, events, seconds, cpu, megabytesOnWire / seconds, peakResidentMB(),
        peakWasReset ? max(0, (statusMB("VmHWM") ?? 0) - residentBefore) : -1, failures,
        accumulator.final?.status?.rawValue ?? (finalSeen ? "seen" : decodeEvents ? "none" : "n/a")))
if failures > 0 || (decodeEvents && accumulator.final == nil && !finalSeen) { exit(1) }
