import Foundation

/// A loopback server that answers as an attacker would (issue 43, Docs/security.md): every way a server's
/// bytes could act on the user's machine, each behind a word in the request's input or a path, so that one
/// server serves every case. Use with `LoopbackServer.start(route: HostileServer.route())`.
///
/// | input contains / path | the answer |
/// |---|---|
/// | `image` | an `image_generation_call` whose id is `../../../../` and whose format is `bashrc_pwned` |
/// | `approve` | a function call whose arguments hide behind a carriage return and an erase-line sequence |
/// | `newlines` | a function call whose JSON arguments scroll their start away with line feeds |
/// | `mcp please` | an MCP approval request with the same arguments, from a server label with an OSC 52 sequence |
/// | `apierror` | a 400 whose error message and param carry OSC 52, clear-screen and C1 CSI |
/// | `failed` | a stream that ends in `response.failed` with such a message |
/// | `htmlerror` | a 502 whose body is HTML with raw escape sequences |
/// | anything else | a text answer from a model whose name breaks HTML attributes by grapheme |
/// | `GET /files` | files whose names are paths and control sequences |
/// | `GET /files/ID` | a file named `../../x.sh` (`file-abs`: `/tmp/…/abs.sh`) |
/// | `GET /files/ID/content` | the bytes `#!/bin/sh\necho pwned\n` |
public enum HostileServer {
    /// Every file under `folder`, as paths relative to it.
    public static func files(under folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(
                atPath: folder.appendingPathComponent($0).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Sequences that act on a terminal: set the clipboard (OSC 52), clear the screen, C1 CSI (red), a bell,
    /// a bare carriage return and an erase-line.
    public static let terminalAttack = "\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{9B}31m\u{07}\rX\u{1B}[2K"
    /// A double quote followed by a combining mark: one `Character`, and not `"`.
    public static let graphemeQuote = "\"\u{0301}"
    /// A model name that, escaped by `Character`, ends an attribute and adds an event handler.
    public static let htmlModel = "gpt\(graphemeQuote) open ontoggle=alert(1) x="
    /// Function arguments whose dangerous start the terminal would erase: what a lying prompt shows last.
    public static let lyingArguments =
        #"{"cmd":"rm -rf ~/important","x":"#
        + "\r\u{1B}[2K" + #"{"x":"harmless"}"#
    /// Valid JSON whose line feeds scroll its dangerous start off the screen, leaving a harmless-looking end.
    public static let scrollingArguments =
        #"{"cmd":"rm -rf ~/important""# + String(repeating: "\n", count: 80)
        + #","Run read_file": {"path":"notes.txt"}}"#
    /// The bytes a hostile download holds.
    public static let payload = "#!/bin/sh\necho pwned\n"

    /// A console harness on a new loopback server answering with `route(fileNamed:)`, as every hostile test
    /// starts; the caller removes the harness and stops its server.
    public static func harness(fileNamed absolutePath: String = "/tmp/openresponses-hostile-abs.sh") async throws
        -> ConsoleHarness
    {
        ConsoleHarness(server: try await LoopbackServer.start(route: route(fileNamed: absolutePath)))
    }

    public static func route(fileNamed absolutePath: String = "/tmp/openresponses-hostile-abs.sh")
        -> LoopbackServer.Route
    {
        { request in
            if request.method == "GET" { return files(request.path, absolutePath: absolutePath) }
            let input = (request.jsonBody?["input"] as? String) ?? String(decoding: request.body, as: UTF8.self)
            if input.contains("apierror") {
                return .json(
                    #"{"error":{"message":"bad \#(json(terminalAttack))","type":"invalid_request_error","param":"p\#(json(terminalAttack))","code":null}}"#,
                    status: 400)
            }
            if input.contains("htmlerror") {
                return Reply(
                    status: 502, headers: [("Content-Type", "text/html")],
                    parts: [.bytes(Array("<html><body>Bad gateway \(terminalAttack)</body></html>".utf8))])
            }
            if input.contains("failed") { return .sse(failedStream()) }
            if input.contains("image") { return .sse(imageStream()) }
            if input.contains("newlines") { return .sse(functionCallStream(arguments: scrollingArguments)) }
            if input.contains("approve") { return .sse(functionCallStream()) }
            if input.contains("mcp please") { return .sse(mcpApprovalStream()) }
            return .sse(Fixtures.textStream(id: "resp_h1", model: htmlModel, text: "fine \(terminalAttack) done"))
        }
    }

    /// A JSON string's content (no quotes) for `text`.
    public static func json(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
    }

    static func frames(_ events: [(String, String)]) -> [String] {
        events.enumerated().map { index, event in
            "event: \(event.0)\ndata: {\"type\":\"\(event.0)\",\"sequence_number\":\(index),\(event.1)}\n\n"
        }
    }

    static func response(_ status: String, output: String) -> String {
        #"{"id":"resp_h1","object":"response","created_at":1795270000,"status":"\#(status)","model":"gpt-4.1-mini","output":\#(output),"usage":null}"#
    }

    public static func imageStream() -> [String] {
        let base64 = Data(payload.utf8).base64EncodedString()
        let item =
            #"{"id":"../../../../","type":"image_generation_call","status":"completed","output_format":"bashrc_pwned","result":"\#(base64)"}"#
        return frames([
            ("response.created", #""response":\#(response("in_progress", output: "[]"))"#),
            ("response.output_item.done", #""output_index":0,"item":\#(item)"#),
            ("response.completed", #""response":\#(response("completed", output: "[\(item)]"))"#),
        ])
    }

    public static func functionCallStream(arguments text: String = lyingArguments) -> [String] {
        let arguments = json(text)
        let item =
            #"{"id":"fc_h1","type":"function_call","status":"completed","name":"local_time","call_id":"call_h1","arguments":"\#(arguments)"}"#
        return frames([
            ("response.created", #""response":\#(response("in_progress", output: "[]"))"#),
            ("response.output_item.done", #""output_index":0,"item":\#(item)"#),
            ("response.completed", #""response":\#(response("completed", output: "[\(item)]"))"#),
        ])
    }

    /// An MCP approval request whose server label sets the clipboard and whose arguments lie.
    public static func mcpApprovalStream() -> [String] {
        let item =
            #"{"id":"mcpr_h1","type":"mcp_approval_request","server_label":"docs\#(json(terminalAttack))","name":"delete_all","arguments":"\#(json(lyingArguments))"}"#
        return frames([
            ("response.created", #""response":\#(response("in_progress", output: "[]"))"#),
            ("response.output_item.done", #""output_index":0,"item":\#(item)"#),
            ("response.completed", #""response":\#(response("completed", output: "[\(item)]"))"#),
        ])
    }

    public static func failedStream() -> [String] {
        let failed =
            #"{"id":"resp_h1","object":"response","created_at":1795270000,"status":"failed","model":"gpt-4.1-mini","output":[],"usage":null,"error":{"code":"server_error","message":"boom \#(json(terminalAttack))"}}"#
        return frames([
            ("response.created", #""response":\#(response("in_progress", output: "[]"))"#),
            ("response.failed", #""response":\#(failed)"#),
        ])
    }

    static func files(_ path: String, absolutePath: String) -> Reply {
        func file(_ id: String, _ name: String) -> String {
            #"{"id":"\#(id)","object":"file","bytes":\#(payload.utf8.count),"created_at":1795270000,"filename":"\#(json(name))","purpose":"user_data"}"#
        }
        let parts = path.split(separator: "/").map(String.init)
        guard let index = parts.firstIndex(of: "files") else {
            return .json(#"{"error":{"message":"not here"}}"#, status: 404)
        }
        let rest = Array(parts[(index + 1)...])
        switch rest.count {
        case 0:
            let listed = [file("file-ctl", "report" + terminalAttack + ".pdf"), file("file-up", "../../x.sh")].joined(
                separator: ",")
            return .json(#"{"object":"list","data":[\#(listed)],"has_more":false}"#)
        case 1:
            return .json(file(rest[0], rest[0] == "file-abs" ? absolutePath : "../../x.sh"))
        default:
            return Reply(
                status: 200, headers: [("Content-Type", "application/octet-stream")],
                parts: [.bytes(Array(payload.utf8))])
        }
    }
}

/// Random strings of the pieces that broke escaping by `Character` and terminals: quotes of every kind,
/// backslashes, combining marks after quotes, ZWJ emoji sequences, prepended marks, C0 and C1 controls,
/// escape sequences, bidirectional overrides, ampersands and angle brackets, and plain words.
public struct HostileStrings: Sendable {
    static let pieces: [String] = [
        "\"", "'", "\\", "`", "$(", ")", ";", "&", "<", ">", "&amp;", "<script>", "\u{0301}", "\"\u{0301}", "'\u{0301}",
        "\u{200D}", "👩\u{200D}💻", "\u{0600}\"", "\u{1B}", "\u{1B}[2J", "\u{1B}]52;c;eA==\u{07}", "\u{9B}", "\u{9D}",
        "\u{85}",
        "\r", "\r\n", "\n", "\t", "\u{7F}", "\u{0}", "\u{202E}", "\u{2066}", "*", "-", ":", "(", "NEAR", "OR", "AND",
        "word", "é", "ß", " ", "  ", "\u{FEFF}", "x=", "onload=", "é\u{0301}", "\u{1F1E9}\u{1F1EA}",
    ]

    var generator: SplitMix

    public init(seed: UInt64) { generator = SplitMix(seed: seed) }

    /// One string of up to `maximumPieces` pieces.
    public mutating func next(maximumPieces: Int = 12) -> String {
        let count = Int.random(in: 1...maximumPieces, using: &generator)
        return (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
    }
}
