import Foundation
import ResponsesAPI
import Testing
import Workbench

/// `ask --schema`'s argument as the request's `text.format`: a file or the concise form, strict when the
/// schema allows it, and the answer checked against it.
@Suite("Schema formats")
struct SchemaFormatTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test func theConciseFormIsAStrictFormatNamedOutput() throws {
        let format = try SchemaFormat.load("name, age int", relativeTo: directory)
        #expect(format.format["type"] == "json_schema")
        #expect(format.format["name"] == "output")
        #expect(format.format["strict"] == true)
        #expect(format.format["schema"] == .object(try ConciseSchema.parse("name, age int")))
        #expect(format.notes.isEmpty)
        let many = try SchemaFormat.load("name, age int", multiple: true, relativeTo: directory)
        #expect(many.schema == ConciseSchema.multiple(try ConciseSchema.parse("name, age int")))
        #expect(many.strict)
    }

    @Test func aFileIsReadAndNamedAfterItsStem() throws {
        let schema =
            #"{"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"], "additionalProperties": false}"#
        try write("my book (v2).json", schema)
        let format = try SchemaFormat.load("my book (v2).json", relativeTo: directory)
        #expect(format.name == "my_book__v2_")
        #expect(format.strict)
        #expect(JSONValue.object(format.schema) == (try JSONValue.parse(schema)))
        // A file that names no .json is still a file when it exists.
        try write("plain", schema)
        #expect(try SchemaFormat.load("plain", relativeTo: directory).name == "plain")
        let long = String(repeating: "a", count: 80)
        try write("\(long).json", schema)
        #expect(try SchemaFormat.load("\(long).json", relativeTo: directory).name.count == 64)
    }

    @Test func aFileHoldingTheAPIsFormatGivesItsSchemaAndName() throws {
        try write(
            "f.json",
            #"{"name": "book", "strict": false, "schema": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}"#
        )
        let format = try SchemaFormat.load("f.json", relativeTo: directory)
        #expect(format.name == "book")
        #expect(!format.strict, "the file said strict: false")
        #expect(format.schema["type"] == "object")
    }

    @Test func aSchemaStrictModeCannotTakeIsSentNotStrictWithANote() throws {
        try write(
            "open.json",
            #"{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}, "additionalProperties": false}}, "required": ["a"], "additionalProperties": false}"#
        )
        let format = try SchemaFormat.load("open.json", relativeTo: directory)
        #expect(!format.strict)
        #expect(format.format["strict"] == false)
        #expect(format.notes.count == 1)
        #expect(format.notes.first?.contains(#"the object at #/properties/a does not require "b""#) == true)

        try write("extra.json", #"{"type": "object", "properties": {}, "required": []}"#)
        #expect(
            try SchemaFormat.load("extra.json", relativeTo: directory).notes.first?.contains(
                "the object at # does not set additionalProperties: false") == true)
        try write("list.json", #"{"type": "array"}"#)
        #expect(
            try SchemaFormat.load("list.json", relativeTo: directory).notes.first?.contains("its root is not") == true)
    }

    @Test func fileErrorsNameThePathAndPlace() throws {
        #expect(throws: SchemaArgumentError.unreadable(path: "missing.json", reason: "no such file")) {
            try SchemaFormat.load("missing.json", relativeTo: directory)
        }
        try write("bad.json", "{\n  \"type\": \"object\",\n  \"properties\": {,}\n}")
        let error = #expect(throws: SchemaArgumentError.self) {
            try SchemaFormat.load("bad.json", relativeTo: directory)
        }
        #expect(
            error?.description.hasPrefix("--schema bad.json:3:18: invalid JSON") == true, "\(String(describing: error))"
        )
        try write("list.json", "[1, 2]")
        #expect(throws: SchemaArgumentError.notASchema(path: "list.json", found: "[1,2]")) {
            try SchemaFormat.load("list.json", relativeTo: directory)
        }
        #expect(
            throws: SchemaArgumentError.concise(
                ConciseSchemaError(field: 1, text: "a b c", line: 1, column: 3, .unknownType("b")))
        ) {
            try SchemaFormat.load("a b c", relativeTo: directory)
        }
    }

    @Test func anAnswerIsJSONThatConformsOrAMismatchWithItsPath() throws {
        let format = try SchemaFormat.load("name, age int", relativeTo: directory)
        #expect(try format.check(answer: #"{"name":"Ada","age":36}"#) == ["name": "Ada", "age": 36])
        let wrong = #expect(throws: AnswerMismatch.self) { try format.check(answer: #"{"name":"Ada","age":"old"}"#) }
        #expect(wrong?.lines == [#"the answer does not match the schema: $.age: expected integer, got string "old""#])
        #expect(wrong?.exitStatus == .invalidAnswer)
        let notJSON = #expect(throws: AnswerMismatch.self) { try format.check(answer: "Ada, 36") }
        #expect(notJSON?.lines.first?.hasPrefix("the answer is not JSON: line 1, column 1") == true)
        #expect(throws: AnswerMismatch.notJSON("the answer is empty")) { try format.check(answer: " \n") }
    }
}
