import ResponsesAPI
import Testing
import Workbench

/// `ask --schema 'name, age int, bio: one sentence'`: the concise form read into a strict JSON Schema, and
/// each way it can be wrong named by field and column.
@Suite("Concise schemas")
struct ConciseSchemaTests {
    @Test func fieldsTypesAndDescriptionsMakeAStrictObject() throws {
        let schema = try ConciseSchema.parse("name, age int, height float: in metres, alive bool, bio: one sentence")
        let expected = try JSONValue.parse(
            """
            {"type": "object", "properties": {
              "name": {"type": "string"}, "age": {"type": "integer"},
              "height": {"type": "number", "description": "in metres"}, "alive": {"type": "boolean"},
              "bio": {"type": "string", "description": "one sentence"}},
             "required": ["name", "age", "height", "alive", "bio"], "additionalProperties": false}
            """)
        #expect(JSONValue.object(schema) == expected)
        #expect(schema["properties"]?.objectValue?.keys == ["name", "age", "height", "alive", "bio"], "in order")
    }

    @Test(
        "every spelling of each type",
        arguments: [
            ("str", "string"), ("string", "string"), ("int", "integer"), ("integer", "integer"), ("float", "number"),
            ("number", "number"), ("bool", "boolean"), ("boolean", "boolean"), ("INT", "integer"),
        ])
    func typeSpellings(_ written: String, _ type: String) throws {
        let schema = try ConciseSchema.parse("x \(written)")
        #expect(schema["properties"]?["x"]?["type"]?.stringValue == type)
    }

    @Test func newlinesSeparateFieldsAndLetDescriptionsHoldCommas() throws {
        let schema = try ConciseSchema.parse("name: first, then last\n  age int: in years, rounded down\n\n")
        #expect(schema["properties"]?["name"]?["description"] == "first, then last")
        #expect(schema["properties"]?["age"]?["description"] == "in years, rounded down")
        #expect(schema["required"] == ["name", "age"])
    }

    @Test func blankFieldsAreSkipped() throws {
        let schema = try ConciseSchema.parse(" name , , age int,")
        #expect(schema["required"] == ["name", "age"])
    }

    @Test func anUnknownTypeNamesTheFieldAndColumn() {
        #expect(throws: ConciseSchemaError(field: 3, text: "age integr", line: 1, column: 16, .unknownType("integr"))) {
            try ConciseSchema.parse("name, bio, age integr")
        }
        let error = #expect(throws: ConciseSchemaError.self) { try ConciseSchema.parse("name, bio, age integr") }
        #expect(
            error?.description
                == #"--schema: field 3 "age integr" (column 16): unknown type "integr" (str, int, float, bool)"#)
    }

    @Test func wordsAfterTheTypeAreRefused() {
        let error = #expect(throws: ConciseSchemaError.self) { try ConciseSchema.parse("age int in years") }
        #expect(error?.problem == .extraWords("in"))
        #expect(error?.column == 9)
        #expect(error?.description.contains("a description goes after ':'") == true)
    }

    @Test func aDescriptionWithoutANameIsRefusedOnItsLine() {
        let error = #expect(throws: ConciseSchemaError.self) { try ConciseSchema.parse("name\n  : a bio") }
        #expect(error?.problem == .missingName)
        #expect(error?.field == 2)
        #expect(error?.line == 2)
        #expect(error?.description.hasPrefix(#"--schema: field 2 ": a bio" (line 2, column 3)"#) == true)
    }

    @Test func aNameGivenTwiceIsRefused() {
        let error = #expect(throws: ConciseSchemaError.self) { try ConciseSchema.parse("name, age int, name: again") }
        #expect(error?.problem == .duplicate(name: "name", firstField: 1))
        #expect(error?.description.contains(#""name" is already field 1"#) == true)
    }

    @Test func nothingAtAllIsRefused() {
        for text in ["", " , ,", "\n\n"] {
            let error = #expect(throws: ConciseSchemaError.self) { try ConciseSchema.parse(text) }
            #expect(error?.problem == .empty)
        }
    }

    @Test func multipleWrapsTheSchemaAsAListOfItemsAndKeepsItsDefinitionsAtTheRoot() throws {
        let one = try ConciseSchema.parse("name")
        let many = ConciseSchema.multiple(one)
        let expected = try JSONValue.parse(
            """
            {"type": "object", "properties": {"items": {"type": "array", "items": \(JSONValue.object(one).compactString)}},
             "required": ["items"], "additionalProperties": false}
            """)
        #expect(JSONValue.object(many) == expected)

        var withDefinitions = one
        withDefinitions["$defs"] = ["x": ["type": "string"]]
        let wrapped = ConciseSchema.multiple(withDefinitions)
        #expect(wrapped["$defs"] == ["x": ["type": "string"]])
        #expect(wrapped["properties"]?["items"]?["items"]?["$defs"] == nil)
    }
}
