import Foundation
import ResponsesAPI
import Testing

@testable import Workbench

/// A suite's problems, each named `SUITE.yaml:LINE:COLUMN`.
@Suite("eval suites")
struct EvalSuiteTests {
    let directory = FileManager.default.temporaryDirectory

    func problems(_ text: String) -> [String] {
        do {
            _ = try EvalSuite.parse(text, path: "smoke.yaml", directory: directory)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func readsTheDocumentedShape() throws {
        let suite = try EvalSuite.parse(
            """
            version: 1
            name: smoke
            presets: [default, terse]
            cases:
              - id: greets
                input: "Say hello to Ada"
                expect:
                  - contains: "Ada"
                  - max_latency_ms: 5000
                  - similar: {text: "Hello Ada", threshold: 0.7}
                  - json_schema: {type: object, required: [name]}
              - id: by-vars
                vars: {name: Ada}
                expect: [{regex: "A.a"}, {max_cost: 0.01}, {max_tokens: 40}, {equals: "x"}, {not_contains: "Bob"}]
            """, path: "smoke.yaml", directory: directory)
        #expect(suite.name == "smoke")
        #expect(suite.presets == ["default", "terse"])
        #expect(suite.cases.map(\.id) == ["greets", "by-vars"])
        #expect(suite.cases[0].assertions.first == .contains("Ada"))
        #expect(suite.cases[0].assertions[2] == .similar(text: "Hello Ada", threshold: 0.7))
        #expect(suite.cases[1].variables == ["name": "Ada"])
        #expect(suite.cases[1].assertions.count == 5)
        #expect(suite.cases[1].location.description == "smoke.yaml:12:5")
    }

    @Test func anInputFileIsReadBesideTheSuiteAndNeverTemplated() throws {
        let folder = directory.appendingPathComponent("eval-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "Hello {{name}}\n".write(to: folder.appendingPathComponent("p.txt"), atomically: true, encoding: .utf8)
        let suite = try EvalSuite.parse(
            "version: 1\ncases:\n  - {id: a, input_file: p.txt, vars: {name: Ada}}\n", path: "s.yaml",
            directory: folder)
        #expect(suite.cases.first?.input == "Hello {{name}}\n")
        #expect(suite.cases.first?.variables == ["name": "Ada"])
        do {
            _ = try EvalSuite.parse(
                "version: 1\ncases:\n  - {id: b, input_file: q.txt}\n", path: "s.yaml", directory: folder)
            Issue.record("q.txt does not exist")
        } catch {
            #expect(error.description.hasPrefix("s.yaml:3:25: cases[0].input_file: cannot read "), "\(error)")
        }
    }

    @Test func aSchemaFileIsReadBesideTheSuite() throws {
        let folder = directory.appendingPathComponent("eval-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"type": "object", "required": ["name"]}"#.write(
            to: folder.appendingPathComponent("card.json"), atomically: true, encoding: .utf8)
        let text = "version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - json_schema: card.json\n"
        let suite = try EvalSuite.parse(text, path: "s.yaml", directory: folder)
        #expect(suite.cases.first?.assertions == [.jsonSchema(["type": "object", "required": ["name"]])])
        do {
            _ = try EvalSuite.parse(
                text.replacingOccurrences(of: "card.json", with: "none.json"), path: "s.yaml", directory: folder)
            Issue.record("none.json does not exist")
        } catch {
            #expect(
                error.description.hasPrefix("s.yaml:6:22: cases[0].expect[0].json_schema: cannot read "), "\(error)")
        }
    }

    @Test func unknownKeyIsNamedWhereItIs() {
        #expect(
            problems("version: 1\ncases:\n  - id: a\n    inptu: hi\n")
                == [
                    "smoke.yaml:4:5: cases[0]: unknown key 'inptu' (did you mean 'input'?); known: id, description, input, input_file, vars, library, expect"
                ])
        #expect(
            problems("version: 1\nmodel: x\ncases:\n  - {id: a, input: hi}\n").first?.hasPrefix(
                "smoke.yaml:2:1: unknown key 'model'") == true)
    }

    @Test func wrongTypeIsNamedWhereItIs() {
        #expect(
            problems("version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - max_latency_ms: soon\n")
                == ["smoke.yaml:6:25: cases[0].expect[0].max_latency_ms: expected a number of 0 or more"])
        #expect(
            problems("version: 1\ncases:\n  - id: a\n    input: hi\n    expect: {contains: x}\n").first?.hasPrefix(
                "smoke.yaml:5:13: cases[0].expect: expected a list") == true)
    }

    @Test func unknownAssertionNamesTheClosest() {
        #expect(
            problems("version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - contain: x\n").first?
                .hasPrefix("smoke.yaml:6:9: cases[0].expect[0]: unknown assertion 'contain' (did you mean 'contains'?)")
                == true)
    }

    @Test func badRegexIsNamedWhereItIs() {
        #expect(
            problems("version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - regex: \"a(b\"\n")
                == ["smoke.yaml:6:16: cases[0].expect[0].regex: the regular expression \"a(b\" does not compile"])
    }

    @Test func duplicateIdsNameTheFirst() {
        #expect(
            problems("version: 1\ncases:\n  - {id: a, input: hi}\n  - {id: a, input: ho}\n")
                == ["smoke.yaml:4:5: cases[1].id: duplicate case id 'a' (first at smoke.yaml:3:5)"])
    }

    @Test func missingVersionAndCasesAndInput() {
        #expect(
            problems("name: x\n") == [
                "smoke.yaml:1:1: 'version' is missing; start the file with version: 1",
                "smoke.yaml:1:1: 'cases' is missing: a suite needs at least one case",
            ])
        #expect(
            problems("version: 1\ncases:\n  - id: a\n").first?.hasPrefix(
                "smoke.yaml:3:5: cases[0]: case 'a' needs an input") == true)
        #expect(
            problems("version: 2\ncases:\n  - {id: a, input: hi}\n") == ["smoke.yaml:1:10: version: version must be 1"])
    }

    @Test func yamlSyntaxErrorHasItsPlace() {
        #expect(problems("version: 1\ncases: [\n").first?.hasPrefix("smoke.yaml:") == true)
    }

    @Test func unknownPresetAndMissingVariableAreNamed() throws {
        let suite = try EvalSuite.parse(
            "version: 1\npresets: [greeter, nosuch]\ncases:\n  - id: a\n    vars: {other: x}\n",
            path: "smoke.yaml", directory: directory)
        var greeter = Preset(name: "greeter")
        greeter.inputTemplate = "Say hello to {{name}}"
        greeter.variableLocations = ["name": SourceLocation(path: "greeter.yaml", line: 3, column: 30)]
        do {
            _ = try suite.checkPresets { name throws(PresetError) in
                guard name == "greeter" else { throw PresetError(message: "no preset named \(name)") }
                return greeter
            }
            Issue.record("expected an error")
        } catch {
            #expect(
                error.diagnostics.map(\.description) == [
                    "smoke.yaml:2:20: presets: unknown preset 'nosuch': no preset named nosuch",
                    "smoke.yaml:4:5: cases.a.vars: {{name}} of preset 'greeter' (written at greeter.yaml:3:30) has no value: give it under vars:",
                ])
        }
    }

    @Test func similarWithoutTheModelIsASuiteErrorUnlessWordsAreAccepted() throws {
        let text = "version: 1\ncases:\n  - id: a\n    input: hi\n    expect:\n      - similar: {text: hello}\n"
        let suite = try EvalSuite.parse(text, path: "smoke.yaml", directory: directory)
        #expect(throws: EvalSuiteError.self) { try EvalChecker.forSuite(suite, modelFolder: "/nonexistent") }
        let accepted = try EvalSuite.parse(
            "similarity: word_overlap\n" + text, path: "smoke.yaml", directory: directory)
        _ = try EvalChecker.forSuite(accepted, modelFolder: "/nonexistent")
    }
}
