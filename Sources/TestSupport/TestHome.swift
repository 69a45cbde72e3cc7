import Foundation

/// A fresh data directory for the built binary under the temporary folder (its `OPENRESPONSES_HOME` and
/// `HOME`), and the binary run with it, as a user with a fresh home runs it.
public struct TestHome: Sendable {
    public let url: URL
    /// Variables every run of the binary gets on top of the home's (a server's URL and key).
    public var environment: [String: String]

    /// A new directory, `or-LABEL-UUID` under the temporary folder; made by the first file written to it.
    public init(_ label: String, environment: [String: String] = [:]) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-\(label)-\(UUID().uuidString)", isDirectory: true)
        self.environment = environment
    }

    public var path: String { url.path }

    public func appendingPathComponent(_ name: String, isDirectory: Bool = false) -> URL {
        url.appendingPathComponent(name, isDirectory: isDirectory)
    }

    /// Runs the built binary with this home, the home's `environment` and `extra` on top
    /// (`Subprocess.openresponses`).
    public func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws
        -> Subprocess.Result
    {
        try await Subprocess.openresponses(arguments, home: url, environment: environment.merging(extra) { $1 })
    }

    /// Makes the folder `name` in the home with `files` in it (a name and its text each); returns the folder.
    @discardableResult
    public func folder(_ name: String, files: [String: String]) throws -> URL {
        for (file, text) in files { try write("\(name)/\(file)", text) }
        let folder = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` to `name` in the home, making the folders on the way; with `mode`, sets its permissions.
    @discardableResult
    public func write(_ name: String, _ text: String, mode: Int? = nil) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path) }
        return file
    }

    /// The named-provider set-up: a default server (`OPENAI_BASE_URL`, key `sk-plain-0000`) answering with
    /// `plain`, and a provider `beta` in config.yaml answering with `beta` (its key `sk-beta-secret-0000` in
    /// `BETA_KEY`). Runs `body` with both servers and the environment naming them; stops them afterwards.
    public func withDefaultAndBeta(
        _ plain: @escaping LoopbackServer.Route, _ beta: @escaping LoopbackServer.Route,
        _ body: (LoopbackServer, LoopbackServer, [String: String]) async throws -> Void
    ) async throws {
        try await LoopbackServer.withTwo(plain, beta) { plain, beta in
            try write(
                "config.yaml", "version: 1\nproviders:\n  beta:\n    base_url: \(beta.baseURL)\n    key_env: BETA_KEY\n"
            )
            let environment = [
                "OPENAI_BASE_URL": plain.baseURL, "OPENAI_API_KEY": "sk-plain-0000", "BETA_KEY": "sk-beta-secret-0000",
            ]
            try await body(plain, beta, environment)
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
