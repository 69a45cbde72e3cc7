import Foundation
import Synchronization

/// The API key every `ConsoleHarness` gives the console: tests look for it where it must never be.
public let consoleTestKey = "sk-console-test-KEY-1234567890"

/// A temporary data directory and an environment pointing the console at a loopback server: for the
/// console in the test process (ConsoleTests' `context`), the built binary and the console in tmux.
public struct ConsoleHarness: Sendable {
    public let home: URL
    public let server: LoopbackServer
    /// Points the console at another server, with the same data directory.
    public var baseURLOverride: String?
    /// More environment variables for the console (NO_COLOR, EDITOR, ...).
    public var extraVariables: [String: String] = [:]

    public init(server: LoopbackServer) {
        self.server = server
        home = FileManager.default.temporaryDirectory
            .appendingPathComponent("openresponses-console-\(UUID().uuidString)", isDirectory: true)
    }

    public var variables: [String: String] {
        [
            "OPENRESPONSES_HOME": home.path, "OPENAI_BASE_URL": baseURLOverride ?? server.baseURL,
            "OPENAI_API_KEY": consoleTestKey,
            "HOME": home.path, "PATH": "/usr/bin:/bin",
        ].merging(extraVariables) { $1 }
    }

    /// True when `needle` occurs in any file under the data directory. Throws when the directory or one of
    /// its files cannot be read, or holds no file at all: "not found" must mean every byte was looked at.
    public func dataDirectoryContains(_ needle: String) throws -> Bool {
        let names = try FileManager.default.subpathsOfDirectory(atPath: home.path)
        var filesRead = 0
        for name in names {
            let path = home.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            filesRead += 1
            if data.range(of: Data(needle.utf8)) != nil { return true }
        }
        guard filesRead > 0 else { throw HarnessError("the data directory \(home.path) holds no file to look in") }
        return false
    }

    /// Runs the built binary with `arguments` in this environment, off a terminal, with `stdin` piped to it.
    public func run(_ arguments: [String], stdin: [UInt8]? = nil) async throws -> Subprocess.Result {
        try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: variables, stdinBytes: stdin)
    }

    /// Opens the console in a real terminal (tmux) with this environment; returns at its first prompt.
    public func startConsole(arguments: [String] = []) async throws -> TmuxSession {
        let tmux = try TmuxSession()
        // Generous deadlines for the start: every suite starts at once, and on two cores a debug binary can
        // wait its turn for seconds. They bound a hang; they measure nothing.
        try await tmux.runBinary(arguments.joined(separator: " "), environment: variables)
        try await tmux.waitFor("Type a message", timeout: .seconds(60))
        try await tmux.waitFor("\n> ")
        return tmux
    }

    /// Writes a user preset `name` with one function tool, `local_time`, whose handler (`handler`, YAML) is
    /// the user's own and so asks before it runs.
    public func writeFunctionPreset(_ name: String, handler: String) throws {
        let presets = home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try """
        version: 1
        tools:
          - type: function
            name: local_time
            parameters: {type: object}
            handler: \(handler)
        """.write(to: presets.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: home)
    }
}

/// Answers `POST /responses` with an echo of the input, streamed word by word (or whole when the request
/// says stream: false); ids are resp_1, resp_2, ... in order. Inputs containing "slow" stream slowly.
public func echoRoute(counter: Counter) -> LoopbackServer.Route {
    { request in
        let body = request.jsonBody ?? [:]
        let input = body["input"] as? String ?? ""
        let id = "resp_\(counter.next())"
        let previous = body["previous_response_id"] as? String
        let text = "echo: " + input
        if body["stream"] as? Bool == false {
            let frames = Fixtures.textStream(id: id, text: text, previousResponseID: previous)
            // The terminal event's response object, whole.
            guard let data = frames.last?.split(separator: "\n").first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any],
                let object = json["response"], let response = try? JSONSerialization.data(withJSONObject: object)
            else { return .json(#"{"error":{"message":"the test route could not build its answer"}}"#, status: 500) }
            return .json(String(decoding: response, as: UTF8.self))
        }
        if input.contains("slow") {
            let words = (1...40).map { "w\($0)" }.joined(separator: " ")
            return .sse(
                Fixtures.textStream(id: id, text: words, previousResponseID: previous), pause: .milliseconds(250))
        }
        return .sse(Fixtures.textStream(id: id, text: text, previousResponseID: previous))
    }
}

public final class Counter: Sendable {
    private let value = Mutex(0)
    public init() {}
    public func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
