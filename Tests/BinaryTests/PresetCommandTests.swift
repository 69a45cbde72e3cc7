import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// `presets list|show` and `settings`, run as a user runs them, with exact output.
@Suite("presets and settings commands")
struct PresetCommandTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-preset-cmd-\(UUID().uuidString)", isDirectory: true)
    var home: URL { root.appendingPathComponent("home", isDirectory: true) }
    var shipped: URL { root.appendingPathComponent("shipped", isDirectory: true) }
    var environment: [String: String] {
        [
            "OPENRESPONSES_HOME": home.path, "OPENRESPONSES_PRESETS_DIR": shipped.path, "HOME": home.path,
            "PATH": "/usr/bin:/bin",
        ]
    }

    func run(_ arguments: [String]) async throws -> Subprocess.Result {
        try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
    }

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// Two shipped presets, one of them overridden by the user's, and a broken one of the user's.
    func makePresets() throws {
        try write(
            "version: 1\ndescription: Shipped alpha\nmodel: gpt-4.1\n", to: shipped.appendingPathComponent("alpha.yaml")
        )
        try write(
            "version: 1\ndescription: Shipped longer-name\nmodel: gpt-4.1\n",
            to: shipped.appendingPathComponent("longer-name.yaml"))
        try write(
            "version: 1\ndescription: Mine\nmodel: gpt-5.1\nreasoning:\n  effort: high\n",
            to: home.appendingPathComponent("presets/alpha.yaml"))
        try write("version: 1\ntemprature: 1\n", to: home.appendingPathComponent("presets/broken.yml"))
    }

    @Test func listSaysWhereEachPresetLivesAndWhatItIsFor() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try makePresets()
        let list = try await run(["presets", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stdout == """
                  alpha        Mine  [yours]
                  alpha        Shipped alpha  [shipped, overridden by yours]
                  broken       (invalid: presets validate \(home.path)/presets/broken.yml says why)  [yours]
                  longer-name  Shipped longer-name  [shipped]

                """)
        #expect(try await run(["presets"]).stdout == list.stdout, "list is the default subcommand")

        let json = try await run(["presets", "list", "--json"])
        let rows = try #require(try JSONValue.parse(json.stdout).arrayValue)
        #expect(rows.map { $0["name"]?.stringValue ?? "?" } == ["alpha", "alpha", "broken", "longer-name"])
        #expect(rows.map { $0["source"]?.stringValue ?? "?" } == ["user", "shipped", "user", "shipped"])
        #expect(rows.map { $0["overridden"] } == [false, true, false, false])
        #expect(rows.map { $0["valid"] } == [true, true, false, true])
        #expect(
            rows.map { $0["path"]?.stringValue ?? "?" } == [
                home.appendingPathComponent("presets/alpha.yaml").path,
                shipped.appendingPathComponent("alpha.yaml").path,
                home.appendingPathComponent("presets/broken.yml").path,
                shipped.appendingPathComponent("longer-name.yaml").path,
            ])

        try FileManager.default.removeItem(at: root)
        let none = try await run(["presets", "list"])
        #expect(none.stdout == "No presets found (looked in \(home.path)/presets, \(shipped.path)).\n")
    }

    /// As read: the name (from the file's) added, the user's preset over the shipped one of that name.
    @Test func showPrintsTheUsersPresetAsRead() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try makePresets()
        let show = try await run(["presets", "show", "alpha"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(
            show.stdout == """
                # \(home.path)/presets/alpha.yaml
                version: 1
                name: alpha
                description: Mine
                model: gpt-5.1
                reasoning:
                  effort: high

                """)
        let json = try await run(["presets", "show", "alpha", "--json"])
        #expect(
            try JSONValue.parse(json.stdout) == [
                "version": 1, "name": "alpha", "description": "Mine", "model": "gpt-5.1",
                "reasoning": ["effort": "high"],
            ])
        let byPath = try await run(["presets", "show", shipped.appendingPathComponent("alpha.yaml").path, "--json"])
        #expect(try JSONValue.parse(byPath.stdout)["description"] == "Shipped alpha")

        let missing = try await run(["presets", "show", "alpah"])
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
        #expect(
            missing.stderr
                == "error: no preset named 'alpah' (did you mean alpha?); known: alpha, broken, longer-name\n")
        let broken = try await run(["presets", "show", "broken"])
        #expect(broken.status == 2)
        #expect(
            broken.stderr.hasPrefix(
                "error: \(home.path)/presets/broken.yml:2:1: temprature: unknown key (did you mean temperature?)"))
    }

    @Test func settingsListsEveryKnobInEachForm() async throws {
        let plain = try await run(["settings"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let lines = plain.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.prefix { $0 != " " }) } == SettingsRegistry.all.map(\.key))
        #expect(
            lines.contains {
                $0.range(
                    of: #"^temperature +Sampling temperature; reasoning models reject it\. \(a number from 0 to 2\)$"#,
                    options: .regularExpression) != nil
            })
        // The help texts start in one column.
        let columns = lines.map { line in
            let key = line.prefix { $0 != " " }
            return key.count + line.dropFirst(key.count).prefix { $0 == " " }.count
        }
        #expect(Set(columns).count == 1, "help starts in columns \(Set(columns).sorted())")

        let json = try await run(["settings", "--json"])
        let rows = try #require(try JSONValue.parse(json.stdout).arrayValue)
        #expect(rows.map { $0["key"]?.stringValue ?? "?" } == SettingsRegistry.all.map(\.key))
        let temperature = try #require(rows.first { $0["key"] == "temperature" })
        #expect(
            temperature == [
                "key": "temperature", "values": "a number from 0 to 2", "api_field": "temperature",
                "help": "Sampling temperature; reasoning models reject it.",
            ])

        let markdown = try await run(["settings", "--markdown"])
        let documented = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Docs/settings.md"),
            encoding: .utf8)
        #expect(markdown.stdout == documented)
    }
}
