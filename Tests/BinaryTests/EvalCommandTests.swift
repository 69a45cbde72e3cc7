import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `openresponses eval`: a suite over two presets and two models against the loopback server, through the
/// built binary.
@Suite("eval command")
struct EvalCommandTests {
    /// Both models greet whoever the message names; model-b forgets the name when the message is long.
    static let route = answeringRoute { model, input in
        let name = ["Ada", "Grace", "Alan"].first { input.contains($0) } ?? "stranger"
        if model == "model-b", input.contains("warmly") { return "Hello there, stranger." }
        return "Hello, \(name)!"
    }

    func harness(_ server: LoopbackServer) throws -> ConsoleHarness {
        let harness = ConsoleHarness(server: server)
        let presets = harness.home.appendingPathComponent("presets", isDirectory: true)
        try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
        try "version: 1\ninstructions: Be terse.\n".write(
            to: presets.appendingPathComponent("terse.yaml"), atomically: true, encoding: .utf8)
        try """
        version: 1
        input_template: "Greet {{name}}. {{input}}"
        variables:
          name: Ada
        """.write(to: presets.appendingPathComponent("greeter.yaml"), atomically: true, encoding: .utf8)
        return harness
    }

    func write(_ harness: ConsoleHarness, _ name: String, _ text: String) throws -> String {
        let file = harness.home.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static let passing = """
        version: 1
        name: smoke
        presets: [terse, greeter]
        cases:
          - id: greets-grace
            input: "Say hello to Grace"
            vars: {name: Grace}
            expect:
              - contains: "Grace"
              - not_contains: "{{name}}"
              - max_tokens: 10
          - id: greets-alan
            input_file: prompts/alan.txt
            vars: {name: Alan}
            expect:
              - regex: "^Hello, Alan!$"
        """

    @Test func aMatrixOfTwoPresetsAndTwoModels() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = try harness(server)
        defer { harness.remove() }
        let suite = try write(harness, "smoke.yaml", Self.passing)
        try FileManager.default.createDirectory(
            at: harness.home.appendingPathComponent("prompts"), withIntermediateDirectories: true)
        _ = try write(harness, "prompts/alan.txt", "Say hello to Alan {{name}}")
        let result = try await harness.run([
            "eval", suite, "--model", "model-a", "--model", "model-b", "--concurrency", "3", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)\n\(result.stdout)")
        let report = try JSONValue.parse(result.stdout)
        let run = try #require(report["run"]?.stringValue)
        let columns = report["columns"]?.arrayValue ?? []
        #expect(
            columns.map { $0["column"]?.stringValue ?? "" } == [
                "preset=terse model=model-a", "preset=terse model=model-b", "preset=greeter model=model-a",
                "preset=greeter model=model-b",
            ])
        #expect(columns.allSatisfy { $0["pass_rate"]?.doubleValue == 1 })
        let cases = report["cases"]?.arrayValue ?? []
        #expect(cases.count == 8)
        #expect(cases.allSatisfy { $0["passed"] == true && $0["failures"]?.arrayValue?.isEmpty == true })
        #expect(cases.allSatisfy { $0["latency_ms"]?.doubleValue != nil && $0["id"]?.stringValue != nil })
        // Eight calls, each as ask would compose it; the case's input is never read for {{variables}}.
        #expect(server.requests.count == 8)
        let bodies = server.requests.compactMap { try? JSONValue.parse($0.body) }
        #expect(Set(bodies.compactMap { $0["model"]?.stringValue }) == ["model-a", "model-b"])
        #expect(bodies.contains { $0["input"]?.stringValue == "Greet Alan. Say hello to Alan {{name}}" })
        #expect(bodies.filter { $0["instructions"]?.stringValue == "Be terse." }.count == 4)
        // The run is kept, readable by its owner only.
        let file = harness.home.appendingPathComponent("evals/\(run).json").path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try JSONValue.parse(Array(FileManager.default.contents(atPath: file) ?? Data()))["run"]?.stringValue == run)
        // Every call is in the inspector, labelled with the run and its preset; another run is another label.
        let again = try await harness.run(["eval", suite, "--model", "model-a", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let list = try await harness.run(["inspect", "list", "--eval", run, "--json", "--limit", "20"])
        let rows = try JSONValue.parse(list.stdout).arrayValue ?? []
        #expect(rows.count == 8, "\(list.stderr)")
        #expect(rows.allSatisfy { $0["eval_run"]?.stringValue == run })
        let shown = try await harness.run(["inspect", "show", "\(rows.first?["id"]?.intValue ?? 0)", "--json"])
        #expect(try JSONValue.parse(shown.stdout)["eval_run"]?.stringValue == run, "\(shown.stderr)")
        #expect(rows.filter { $0["preset"] == "greeter" }.count == 4)
        let all = try await harness.run(["inspect", "list", "--json", "--limit", "50"])
        #expect(try JSONValue.parse(all.stdout).arrayValue?.count == 12)
    }

    @Test func aFailingCaseExitsOneAndSaysWhy() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = try harness(server)
        defer { harness.remove() }
        let suite = try write(
            harness, "warm.yaml",
            """
            version: 1
            cases:
              - id: warm
                input: "Say hello to Ada warmly"
                expect: [{contains: "Ada"}]
            """)
        let result = try await harness.run(["eval", suite, "--model", "model-a", "--model", "model-b"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("model=model-a  1/1 100%"), "\(result.stdout)")
        #expect(result.stdout.contains("model=model-b  0/1   0%"))
        #expect(
            result.stdout.contains(
                "  warm [model=model-b]\n    contains: \"Ada\": not in the answer \"Hello there, stranger.\""))
        #expect(result.stdout.contains("1 of 2 passed"))
    }

    @Test func aSuiteErrorExitsTwoNamingItsPlace() async throws {
        let server = try await LoopbackServer.start(route: Self.route)
        let harness = try harness(server)
        defer { harness.remove() }
        let unknown = try write(
            harness, "bad.yaml", "version: 1\npresets: [terse, nosuch]\ncases:\n  - {id: a, input: hi}\n")
        let result = try await harness.run(["eval", unknown])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.yaml:2:18: presets: unknown preset 'nosuch'"), "\(result.stderr)")
        let typo = try write(
            harness, "typo.yaml", "version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - containz: x\n")
        let second = try await harness.run(["eval", typo])
        #expect(second.status == 2)
        #expect(
            second.stderr.contains("typo.yaml:6:9: cases[0].expect[0]: unknown assertion 'containz'"),
            "\(second.stderr)")
        // With no preset named, the config file's is checked: a variable no case gives is named at the case.
        _ = try write(harness, "config.yaml", "version: 1\npreset: needy\n")
        _ = try write(
            harness, "presets/needy.yaml", "version: 1\ninput_template: \"Ask {{who}}\"\nvariables:\n  who: ~\n")
        let needy = try write(harness, "needy.yaml", "version: 1\ncases:\n  - {id: a, input: hi}\n")
        let third = try await harness.run(["eval", needy])
        #expect(third.status == 2)
        #expect(third.stderr.contains("needy.yaml:3:5: cases.a.vars: {{who}} of preset 'needy'"), "\(third.stderr)")
        #expect(server.requests.isEmpty)
    }
}
