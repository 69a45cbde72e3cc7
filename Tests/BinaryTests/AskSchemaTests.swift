import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `ask --schema` and `--schema-multi` with the built binary: the request's `text.format` checked against
/// OpenAI's spec, and the loopback server's answer checked against the schema (pretty-printed when it
/// conforms, an error with its JSON path and exit status 4 when it does not).
@Suite("ask --schema (binary)")
struct AskSchemaTests {
    /// Answers every request with `answer` as the output text, streamed.
    static func answering(_ answer: String) -> LoopbackServer.Route {
        { _ in .sse(Fixtures.textStream(id: "resp_s1", text: answer)) }
    }

    @Test func theConciseFormIsAStrictJSONSchemaFormatTheSpecAccepts() async throws {
        let harness = try await ConsoleHarness.start(route: Self.answering("{}"))
        defer { harness.close() }
        let result = try await harness.run([
            "ask", "--model", "gpt-4.1-mini", "--schema", "name, age int, bio: one sentence", "--dry-run", "Ada?",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "strict: no note")
        let body = try JSONValue.parse(result.stdout)
        let expected = try JSONValue.parse(
            """
            {"type": "json_schema", "name": "output", "strict": true, "schema": {
              "type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"},
              "bio": {"type": "string", "description": "one sentence"}},
              "required": ["name", "age", "bio"], "additionalProperties": false}}
            """)
        #expect(body["text"]?["format"] == expected)
        #expect(harness.server.requests.isEmpty, "a dry run sends nothing")

        let multi = try await harness.run(["ask", "--schema-multi", "name, age int", "--dry-run", "people?"])
        #expect(multi.status == 0, "\(multi.stderr)")
        let multiBody = try JSONValue.parse(multi.stdout)
        #expect(multiBody["text"]?["format"]?["schema"]?["properties"]?["items"]?["type"] == "array")
        #expect(multiBody["text"]?["format"]?["schema"]?["required"] == ["items"])

        if SpecValidation.available {
            let problems = try await SpecValidation.validate([body, multiBody])
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test func aConformingAnswerIsPrettyPrintedAndTheRequestCarriesTheFormat() async throws {
        let harness = try await ConsoleHarness.start(route: Self.answering(#"{"name":"Ada","age":36}"#))
        defer { harness.close() }
        let result = try await harness.run(["ask", "--schema", "name, age int", "who wrote the first program?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\n  \"name\": \"Ada\",\n  \"age\": 36\n}\n")
        let sent = try #require(harness.server.requests.first?.jsonBody)
        let format = try #require((sent["text"] as? [String: Any])?["format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        #expect(format["strict"] as? Bool == true)
    }

    @Test func anAnswerThatBreaksTheSchemaIsAnErrorNamingItsPath() async throws {
        let harness = try await ConsoleHarness.start(route: Self.answering(#"{"name":"Ada","age":"old"}"#))
        defer { harness.close() }
        let result = try await harness.run(["ask", "--schema", "name, age int", "who?"])
        #expect(result.status == 4)
        #expect(result.stdout.isEmpty, "stdout holds only JSON that conforms")
        #expect(
            result.stderr
                == #"error: the answer does not match the schema: $.age: expected integer, got string "old""# + "\n")
        // The exchange is recorded all the same.
        let list = try await harness.run(["inspect", "list", "--json"])
        #expect(try JSONValue.parse(list.stdout).arrayValue?.first?["response_id"] == "resp_s1")
    }

    @Test func anAnswerThatIsNotJSONIsAnError() async throws {
        let harness = try await ConsoleHarness.start(route: Self.answering("Ada, aged 36"))
        defer { harness.close() }
        let result = try await harness.run(["ask", "--schema", "name, age int", "who?"])
        #expect(result.status == 4)
        #expect(result.stderr.hasPrefix("error: the answer is not JSON: line 1, column 1"), "\(result.stderr)")
        #expect(result.stderr.contains(#"(it begins "Ada, aged 36")"#))
    }

    @Test func theFileFormIsNamedAfterTheFileAndANonStrictSchemaSaysWhy() async throws {
        let harness = try await ConsoleHarness.start(
            route: Self.answering(#"{"items":[{"title":"Emma"},{"title":7}]}"#))
        defer { harness.close() }
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let strictFile = harness.home.appendingPathComponent("book list.json")
        try
            #"{"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"], "additionalProperties": false}"#
            .write(to: strictFile, atomically: true, encoding: .utf8)
        let dry = try await harness.run(["ask", "--schema", strictFile.path, "--dry-run", "a book"])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stderr.isEmpty)
        let body = try JSONValue.parse(dry.stdout)
        #expect(body["text"]?["format"]?["name"] == "book_list")
        #expect(body["text"]?["format"]?["strict"] == true)
        #expect(body["text"]?["format"]?["schema"]?["properties"]?["title"] == ["type": "string"])

        let openFile = harness.home.appendingPathComponent("open.json")
        try #"{"type": "object", "properties": {"title": {"type": "string"}}}"#
            .write(to: openFile, atomically: true, encoding: .utf8)
        let open = try await harness.run(["ask", "--schema", openFile.path, "--dry-run", "a book"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(
            open.stderr.hasPrefix(
                "note: the schema is sent with strict: false, as the object at # does not set additionalProperties: false"
            ), "\(open.stderr)")
        let openBody = try JSONValue.parse(open.stdout)
        #expect(openBody["text"]?["format"]?["strict"] == false)
        if SpecValidation.available {
            let problems = try await SpecValidation.validate([body, openBody])
            #expect(problems.isEmpty, "\(problems)")
        }

        // A list from the file's schema: the second title breaks it.
        let listed = try await harness.run(["ask", "--schema-multi", strictFile.path, "two books"])
        #expect(listed.status == 4)
        #expect(listed.stderr.contains("$.items[1].title: expected string, got integer 7"), "\(listed.stderr)")
    }

    @Test func badSchemasAreUsageErrorsThatNameTheirPlace() async throws {
        let harness = try await ConsoleHarness.start(route: Self.answering("{}"))
        defer { harness.close() }
        let concise = try await harness.run(["ask", "--schema", "name, bio, age integr", "who?"])
        #expect(concise.status == 2)
        #expect(
            concise.stderr
                == #"error: --schema: field 3 "age integr" (column 16): unknown type "integr" (str, int, float, bool)"#
                + "\n")
        try FileManager.default.createDirectory(at: harness.home, withIntermediateDirectories: true)
        let bad = harness.home.appendingPathComponent("bad.json")
        try "{\n  \"type\": \"object\",,\n}".write(to: bad, atomically: true, encoding: .utf8)
        let file = try await harness.run(["ask", "--schema", bad.path, "who?"])
        #expect(file.status == 2)
        #expect(file.stderr.hasPrefix("error: --schema \(bad.path):2:20: invalid JSON"), "\(file.stderr)")
        let missing = try await harness.run(["ask", "--schema", "nowhere.json", "who?"])
        #expect(missing.stderr == "error: --schema nowhere.json: no such file\n")
        let clash = try await harness.run(["ask", "--schema", "name", "--set", "text.format=json_object", "who?"])
        #expect(clash.status == 2)
        #expect(clash.stderr.contains("--schema sets text.format already"), "\(clash.stderr)")
        #expect(harness.server.requests.isEmpty)
    }
}
