import Foundation
import ResponsesAPI
import TestSupport

// The project's loopback test server as a process, for Benchmarks/compare.sh and cancel.sh:
// `POST /v1/responses` answers a tiny streamed answer; when the input says "large", a streamed answer of
// about N MB in many small output_text.delta events; when it says "api", an answer of N MB as the API sends
// a long one (multi-byte text in 32 KB deltas, then four final events each repeating the whole text:
// about 5 × N MB on the wire); when it says "api-paced", the same at about 110 MB/s (1 MB, then a pause), as
// fast as the server of the issue's measurement sent it (2.3 s for 50 MB); "large-paced", the small deltas at
// that speed; when it says "slow", 200 words a
// tenth of a second apart; "mcp-time", a call of the local MCP server `time` (Benchmarks/mcp.sh). `/v1/files`
// and `/v1/batches` are the loopback Batch API (`BatchServer`, Benchmarks/batch.sh); a request with `"stream":
// false` gets the tiny answer as one JSON response (Benchmarks/eval.sh).
//   openresponses-loopback PORT_FILE [MB]     (writes the port to PORT_FILE; runs until killed; --help)

let arguments = CommandLine.arguments
let usage = "usage: openresponses-loopback PORT_FILE [MB]\n"
if arguments.count >= 2, ["-h", "--help"].contains(arguments[1]) {
    FileHandle.standardOutput.write(Data(usage.utf8))
    exit(0)
}
// A first argument that looks like an option is a mistake, not a file to write the port to.
guard arguments.count >= 2, !arguments[1].hasPrefix("-") else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let megabytes: Double
if arguments.count > 2 {
    guard let value = Double(arguments[2]), value.isFinite, value > 0, value <= 100_000 else {
        FileHandle.standardError.write(
            Data("openresponses-loopback: MB must be a number above 0 and at most 100000 (got \(arguments[2]))\n".utf8))
        exit(2)
    }
    megabytes = value
} else {
    megabytes = 50
}

/// Each long answer is made the first time it is asked for.
enum Answers {
    static let large = Fixtures.chunked(Fixtures.largeTextStream(megabytes: megabytes))
    static let api = Fixtures.chunked(Fixtures.apiTextStream(megabytes: megabytes, repeatingPast: nil).frames)
    static let apiPaced = paced(api)
    static let largePaced = paced(large)

    /// `answer` in 1 MiB parts, each followed by the time 1 MiB takes at 110 MB/s.
    static func paced(_ answer: [Reply.Part]) -> [Reply.Part] {
        var parts: [Reply.Part] = []
        var current: [UInt8] = []
        for case .bytes(let bytes) in answer {
            current += bytes
            if current.count >= 1 << 20 {
                parts += [.bytes(current), .pause(.microseconds(Int64(current.count) * 1_000_000 / 110_000_000))]
                current = []
            }
        }
        return parts + [.bytes(current)]
    }
}
let tiny = Fixtures.chunked(Fixtures.textStream(id: "resp_tiny", text: "Hello! This is a tiny streamed answer."))
let headers = [("Content-Type", "text/event-stream; charset=utf-8")]
let slow = Fixtures.textStream(id: "resp_slow", text: (1...200).map { "w\($0)" }.joined(separator: " "))
let callsTime = MCPServers.callingRoute("time__get_current_time", arguments: #"{"timezone":"UTC"}"#)
let batches = BatchServer()
let whole = answeringRoute { _, _ in "Hello! This is a tiny answer." }
let server = try await LoopbackServer.start { request in
    if request.path.hasPrefix("/v1/files") || request.path.hasPrefix("/v1/batches") { return batches.route(request) }
    // An answer asked for whole (`stream: false`, as `eval` asks): the tiny answer as one JSON response.
    if (try? JSONValue.parse(request.body))?["stream"]?.boolValue == false { return whole(request) }
    let body = String(decoding: request.body, as: UTF8.self)
    // "mcp-time": a call of the local MCP server `time`'s tool, then an answer from what it returned.
    if body.contains("mcp-time") || body.contains("function_call_output") { return callsTime(request) }
    if body.contains("slow") { return .sse(slow, pause: .milliseconds(100)) }
    if body.contains("\"api\"") { return Reply(status: 200, headers: headers, parts: Answers.api) }
    if body.contains("\"api-paced\"") { return Reply(status: 200, headers: headers, parts: Answers.apiPaced) }
    if body.contains("\"large-paced\"") { return Reply(status: 200, headers: headers, parts: Answers.largePaced) }
    return Reply(status: 200, headers: headers, parts: body.contains("large") ? Answers.large : tiny)
}
try String(server.port).write(toFile: arguments[1], atomically: true, encoding: .utf8)
while true { try await Task.sleep(for: .seconds(3600)) }
