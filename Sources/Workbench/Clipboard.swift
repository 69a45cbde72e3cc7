import Foundation
import ResponsesAPI
import Spawning

/// The desktop's clipboard, read through the program the session has for it (`/paste`): `wl-paste` on
/// Wayland, `xclip` or `xsel` on X11, found on the session's `PATH` (its `AppEnvironment`, never this
/// process's). An image (PNG, JPEG, GIF, WebP) is preferred when the clipboard offers one, else its text.
/// Each program runs as a `ChildProcess` with the session's variables, a deadline (`timeout`) and a cap on
/// what it may write (`limit`); what it writes is untrusted, and is never printed here.
public struct Clipboard: Sendable {
    /// A program that reads the clipboard.
    public enum Tool: String, Sendable, Hashable, CaseIterable {
        case wlPaste = "wl-paste"
        case xclip
        case xsel

        /// The package that installs it.
        public var package: String { self == .wlPaste ? "wl-clipboard" : rawValue }

        /// Lists the types the clipboard offers, one a line; nil when the program cannot (xsel: text only).
        var listArguments: [String]? {
            switch self {
            case .wlPaste: ["--list-types"]
            case .xclip: ["-selection", "clipboard", "-t", "TARGETS", "-o"]
            case .xsel: nil
            }
        }

        /// Writes the clipboard's content of `type` (nil: the program's default, its text).
        func fetchArguments(type: String?) -> [String] {
            switch self {
            case .wlPaste: ["--no-newline"] + (type.map { ["--type", $0] } ?? [])
            case .xclip: ["-selection", "clipboard"] + (type.map { ["-t", $0] } ?? []) + ["-o"]
            case .xsel: ["--clipboard", "--output"]
            }
        }
    }

    /// What a program may write: more is refused (and the program stopped there).
    public static let defaultLimit = 20 * 1024 * 1024
    /// How long each run of a program may take: a clipboard owner that never answers stops it there.
    public static let defaultTimeout: Duration = .seconds(5)
    /// The image types attached as images, the first offered one taken.
    public static let imageTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"]
    /// The text types, best first; any other `text/...` after them.
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "STRING", "TEXT"]

    /// The session's variables: its `PATH` is searched, and the program gets `childEnvironment` of them.
    public var variables: [String: String]
    public var limit: Int
    public var timeout: Duration

    public init(environment: AppEnvironment, limit: Int = Self.defaultLimit, timeout: Duration = Self.defaultTimeout) {
        self.variables = environment.variables
        self.limit = limit
        self.timeout = timeout
    }

    /// The programs in the order they are looked for: `wl-paste` first on Wayland (`WAYLAND_DISPLAY`), `xclip`
    /// then `xsel` on X (`DISPLAY`); with neither, whichever is there.
    public var order: [Tool] {
        if variables["WAYLAND_DISPLAY"]?.isEmpty == false { return [.wlPaste, .xclip, .xsel] }
        if variables["DISPLAY"]?.isEmpty == false { return [.xclip, .xsel, .wlPaste] }
        return [.wlPaste, .xclip, .xsel]
    }

    /// The variables a clipboard program needs (where programs are, the home, the language, the display's), and
    /// no others: never the user's keys.
    static let passedVariables: Set<String> = [
        "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "USER", "LOGNAME", "TZ", "WAYLAND_DISPLAY",
        "XDG_RUNTIME_DIR", "DISPLAY", "XAUTHORITY",
    ]

    /// What a program runs with: the session's `passedVariables`.
    var childEnvironment: [String: String] { variables.filter { Self.passedVariables.contains($0.key) } }

    /// The directories of the session's `PATH`, in order (empty entries skipped).
    public var searchPath: [String] {
        (variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The first program of `order` found on `PATH`, with its path; nil when there is none.
    public func locate() -> (tool: Tool, path: String)? {
        for tool in order {
            for directory in searchPath {
                let path = directory + "/" + tool.rawValue
                if FileManager.default.isExecutableFile(atPath: path) { return (tool, path) }
            }
        }
        return nil
    }

    /// What the clipboard holds: its types listed, then the bytes of the one taken (`timeout` each run, on a
    /// thread of their own; the task cancelled, the program is stopped).
    public func read() async throws(ClipboardError) -> ClipboardContent {
        guard let found = locate() else { throw ClipboardError(.noTool(searched: searchPath)) }
        let (tool, path) = (found.tool, found.path)
        var choice = ClipboardChoice.text(nil)
        if let list = tool.listArguments {
            let listed = try await run(tool, path, list)
            choice = ClipboardChoice(types: String(decoding: listed, as: UTF8.self))
        }
        switch choice {
        case .empty:
            throw ClipboardError(.empty, tool: tool)
        case .neither(let types):
            throw ClipboardError(.unsupported(types: types), tool: tool)
        case .image(let type):
            let bytes = try await run(tool, path, tool.fetchArguments(type: type))
            guard !bytes.isEmpty else { throw ClipboardError(.empty, tool: tool) }
            guard ClipboardContent.looksLike(type, bytes) else {
                throw ClipboardError(.notImage(type: type), tool: tool)
            }
            return ClipboardContent(mediaType: type, bytes: bytes, tool: tool)
        case .text(let type):
            let bytes = try await run(tool, path, tool.fetchArguments(type: type))
            guard !bytes.isEmpty else { throw ClipboardError(.empty, tool: tool) }
            // Not UTF-8: each bad byte becomes U+FFFD, as the text is sent.
            let text = String(decoding: bytes, as: UTF8.self)
            return ClipboardContent(mediaType: "text/plain", bytes: Array(text.utf8), tool: tool)
        }
    }

    /// Runs `tool` and returns its stdout. A program that says the clipboard is empty (wl-paste's "Nothing is
    /// copied", xclip's target "not available") is `.empty`; any other failure is `.failed` with its stderr
    /// (untrusted: whoever shows it cleans it).
    func run(_ tool: Tool, _ path: String, _ arguments: [String]) async throws(ClipboardError) -> [UInt8] {
        let child = ChildProcess(path, arguments, environment: childEnvironment, timeout: timeout, outputLimit: limit)
        let outcome: ChildProcess.Outcome
        do {
            outcome = try await child.run()
        } catch {
            throw ClipboardError(.cannotRun(error.detail), tool: tool)
        }
        if outcome.overflowed { throw ClipboardError(.tooLarge(limit: limit), tool: tool) }
        switch outcome.end {
        case .exited(0):
            return outcome.output
        case .timedOut:
            throw ClipboardError(.timedOut(seconds: timeout.components.seconds), tool: tool)
        case .cancelled:
            throw ClipboardError(.interrupted, tool: tool)
        case .exited(let status), .signalled(let status):
            let errors = String(decoding: outcome.errors, as: UTF8.self)
            if ClipboardError.saysEmpty(errors) { throw ClipboardError(.empty, tool: tool) }
            throw ClipboardError(.failed(status: outcome.end.status ?? status, errors: errors), tool: tool)
        }
    }
}
