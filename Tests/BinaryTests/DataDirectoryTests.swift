import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Where the binary keeps its data (OPENRESPONSES_HOME, else $XDG_DATA_HOME/openresponses, else
/// ~/.local/share/openresponses), that it makes the directory private, and the order of the settings
/// layers it reads from there (defaults < config.yaml < preset < flags), run as a user runs it.
@Suite("The data directory")
struct DataDirectoryTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-data-\(UUID().uuidString)", isDirectory: true)

    /// Runs the binary with exactly `environment` (plus PATH) and the usual umask, so a directory created
    /// 0755 shows as such whatever the test process's umask.
    func run(_ arguments: [String], environment: [String: String]) async throws -> Subprocess.Result {
        try await Subprocess.run(
            "/bin/bash",
            ["-c", #"umask 022 && exec "$@""#, "openresponses", Subprocess.openresponsesBinary] + arguments,
            environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue, "no mode for \(path)")
    }

    @Test func theDirectoryIsMadePrivateWhereverItComesFrom() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await LoopbackServer.start(route: echoRoute(counter: Counter()))
        let home = root.appendingPathComponent("home", isDirectory: true)
        let xdg = root.appendingPathComponent("xdg", isDirectory: true)
        let chosen = root.appendingPathComponent("chosen/data", isDirectory: true)
        let base = ["OPENAI_BASE_URL": server.baseURL, "OPENAI_API_KEY": "sk-data-dir-test", "HOME": home.path]
        let cases: [(variables: [String: String], directory: URL)] = [
            (["OPENRESPONSES_HOME": chosen.path, "XDG_DATA_HOME": xdg.path], chosen),
            (["XDG_DATA_HOME": xdg.path], xdg.appendingPathComponent("openresponses")),
            (["XDG_DATA_HOME": ""], home.appendingPathComponent(".local/share/openresponses")),
        ]
        for (index, (variables, directory)) in cases.enumerated() {
            let environment = base.merging(variables) { $1 }
            let ask = try await run(["ask", "turn \(index)"], environment: environment)
            try #require(ask.status == 0, "\(variables): \(ask.stderr)")
            #expect(ask.stdout == "echo: turn \(index)\n")
            #expect(try Self.mode(directory.path) == 0o700, "\(directory.path)")
            #expect(try Self.mode(directory.appendingPathComponent("inspector.sqlite").path) == 0o600)
            // The same environment finds the same store again, with this turn in it and no other.
            let list = try await run(["inspect", "list", "--json"], environment: environment)
            let rows = try JSONValue.parse(list.stdout).arrayValue ?? []
            #expect(rows.compactMap { $0["response_id"]?.stringValue } == ["resp_\(index + 1)"], "\(variables)")
        }
        // Nothing went where it was not asked to: the XDG directory holds only its own data directory, and
        // the home directory only the fallback's.
        #expect(try FileManager.default.contentsOfDirectory(atPath: xdg.path) == ["openresponses"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == [".local"])
        await server.stop()
    }

    @Test func userPresetsAndTheConfigFileAreReadFromTheXDGDirectory() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("xdg/openresponses", isDirectory: true)
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("presets"), withIntermediateDirectories: true)
        try "version: 1\ndescription: Mine, from XDG\nmodel: gpt-4.1\ntemperature: 0.5\n"
            .write(to: data.appendingPathComponent("presets/mine.yaml"), atomically: true, encoding: .utf8)
        try "version: 1\npreset: mine\n".write(
            to: data.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let environment = [
            "XDG_DATA_HOME": root.appendingPathComponent("xdg").path, "HOME": root.appendingPathComponent("home").path,
            "OPENAI_API_KEY": "sk-x", "OPENRESPONSES_INSPECTOR": "off",
        ]
        let dry = try await run(["ask", "--dry-run", "hi"], environment: environment)
        try #require(dry.status == 0, "\(dry.stderr)")
        let body = try JSONValue.parse(dry.stdout)
        #expect(body["model"] == "gpt-4.1")
        #expect(body["temperature"] == 0.5)
        let list = try await run(["presets", "list"], environment: environment)
        #expect(
            list.stdout.split(separator: "\n").contains {
                $0.hasPrefix("  mine ") && $0.hasSuffix("Mine, from XDG  [yours]")
            }, "\(list.stdout)")
    }

    /// defaults < config.yaml < preset < flags, each key set by two layers at once.
    @Test func thePresetWinsOverTheConfigFileAndFlagsOverBoth() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("presets"), withIntermediateDirectories: true)
        try
            "version: 1\nmodel: gpt-4.1\ntemperature: 0.1\ntop_p: 0.3\nmax_output_tokens: 100\nmetadata: {layer: config, owner: me}\n"
            .write(to: data.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "version: 1\ntemperature: 0.5\ntop_p: 0.6\nmetadata: {layer: preset}\n"
            .write(to: data.appendingPathComponent("presets/team.yaml"), atomically: true, encoding: .utf8)
        let environment = [
            "OPENRESPONSES_HOME": data.path, "HOME": data.path, "OPENAI_API_KEY": "sk-x",
            "OPENRESPONSES_INSPECTOR": "off",
        ]
        func body(_ arguments: [String]) async throws -> JSONValue {
            let dry = try await run(["ask", "--dry-run"] + arguments + ["hi"], environment: environment)
            try #require(dry.status == 0, "\(arguments): \(dry.stderr)")
            return try JSONValue.parse(dry.stdout)
        }

        let config = try await body([])
        #expect(config["model"] == "gpt-4.1")
        #expect(config["temperature"] == 0.1)
        #expect(config["metadata"] == ["layer": "config", "owner": "me"])

        let preset = try await body(["--preset", "team"])
        #expect(preset["model"] == "gpt-4.1", "the config file's, the preset says nothing of it")
        #expect(preset["temperature"] == 0.5, "the preset's, over the config file's 0.1")
        #expect(preset["top_p"] == 0.6)
        #expect(preset["max_output_tokens"] == 100)
        #expect(preset["metadata"] == ["layer": "preset", "owner": "me"])

        let flags = try await body(["--preset", "team", "--set", "temperature=0.9", "--model", "gpt-4.1-mini"])
        #expect(flags["model"] == "gpt-4.1-mini")
        #expect(flags["temperature"] == 0.9)
        #expect(flags["top_p"] == 0.6)
    }
}
