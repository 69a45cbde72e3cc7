import ResponsesAPI
import Testing
import Workbench

/// Each keyword the validator knows, passing and failing, with the JSON path of the failure.
@Suite("JSON Schema validation")
struct JSONSchemaValidatorTests {
    /// The violations of `value` (JSON text) under `schema` (JSON text), as `path: message` lines.
    func violations(_ value: String, _ schema: String) throws -> [String] {
        let validator = JSONSchemaValidator(schema: try JSONValue.parse(schema))
        return validator.violations(of: try JSONValue.parse(value)).map(\.description)
    }

    /// Each type name, with an integer counted as a number and an integral number as an integer.
    @Test func typesThatMatch() throws {
        let matches: KeyValuePairs = [
            "\"x\"": "string", "3": "integer", "3 ": "number", "3.5": "number", "3.0": "integer", "true": "boolean",
            "null": "null", "[]": "array", "{}": "object",
        ]
        for (value, type) in matches {
            #expect(try violations(value, #"{"type": "\#(type)"}"#).isEmpty, "\(value) is a \(type)")
        }
    }

    @Test func typesThatDoNotMatchSayWhatCame() throws {
        #expect(try violations(#""x""#, #"{"type": "integer"}"#) == [#"$: expected integer, got string "x""#])
        #expect(try violations("3.5", #"{"type": "integer"}"#) == ["$: expected integer, got number 3.5"])
        #expect(try violations("true", #"{"type": "number"}"#) == ["$: expected number, got boolean true"])
        #expect(try violations("[1]", #"{"type": "object"}"#) == ["$: expected object, got an array of 1 item"])
        #expect(try violations("{}", #"{"type": "null"}"#) == ["$: expected null, got an object"])
    }

    @Test func aListOfTypes() throws {
        #expect(try violations("null", #"{"type": ["string", "null"]}"#).isEmpty)
        #expect(try violations("5", #"{"type": ["string", "null"]}"#) == ["$: expected string or null, got integer 5"])
    }

    @Test func propertiesAreCheckedAtTheirPaths() throws {
        let schema = #"{"type": "object", "properties": {"age": {"type": "integer"}, "name": {"type": "string"}}}"#
        #expect(try violations(#"{"age": 36, "name": "Ada"}"#, schema).isEmpty)
        #expect(
            try violations(#"{"age": "forty", "name": 1}"#, schema) == [
                #"$.age: expected integer, got string "forty""#, "$.name: expected string, got integer 1",
            ])
    }

    @Test func requiredNamesTheMissingProperty() throws {
        let schema = #"{"type": "object", "required": ["name", "age"]}"#
        #expect(try violations(#"{"name": "Ada", "age": 1}"#, schema).isEmpty)
        #expect(try violations(#"{"name": "Ada"}"#, schema) == ["$.age: required, and missing"])
    }

    @Test func additionalPropertiesFalseOrASchema() throws {
        let closed = #"{"properties": {"a": {}}, "additionalProperties": false}"#
        #expect(try violations(#"{"a": 1}"#, closed).isEmpty)
        #expect(
            try violations(#"{"a": 1, "b": 2, "odd key": 3}"#, closed) == [
                "$.b: not allowed (additionalProperties is false)",
                #"$["odd key"]: not allowed (additionalProperties is false)"#,
            ])
        let typed = #"{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}"#
        #expect(try violations(#"{"a": "x", "b": 2}"#, typed).isEmpty)
        #expect(try violations(#"{"b": "2"}"#, typed) == [#"$.b: expected integer, got string "2""#])
        #expect(try violations(#"{"b": "2"}"#, #"{"additionalProperties": true}"#).isEmpty)
    }

    @Test func itemsAreCheckedAtTheirIndex() throws {
        let schema = #"{"type": "array", "items": {"type": "object", "properties": {"age": {"type": "integer"}}}}"#
        #expect(try violations(#"[{"age": 1}, {"age": 2}]"#, schema).isEmpty)
        #expect(
            try violations(#"[{"age": 1}, {"age": 2}, {"age": "x"}]"#, schema) == [
                #"$[2].age: expected integer, got string "x""#
            ])
        let nested = #"{"properties": {"items": \#(schema)}}"#
        #expect(
            try violations(#"{"items": [{}, {}, {"age": "x"}]}"#, nested) == [
                #"$.items[2].age: expected integer, got string "x""#
            ])
        let tuple = #"{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#
        #expect(try violations(#"["a", 1, 2]"#, tuple).isEmpty)
        #expect(
            try violations(#"[1, "a"]"#, tuple) == [
                "$[0]: expected string, got integer 1", #"$[1]: expected integer, got string "a""#,
            ])
    }

    @Test func enumAndConst() throws {
        #expect(try violations(#""red""#, #"{"enum": ["red", "green"]}"#).isEmpty)
        #expect(try violations("1.0", #"{"enum": [1, 2]}"#).isEmpty, "numbers by value")
        #expect(
            try violations(#""blue""#, #"{"enum": ["red", "green"]}"#) == [
                #"$: expected one of "red", "green", got string "blue""#
            ])
        #expect(try violations(#"{"b": 2, "a": 1}"#, #"{"const": {"a": 1, "b": 2}}"#).isEmpty, "in any key order")
        #expect(try violations("3", #"{"const": 4}"#) == ["$: expected 4, got integer 3"])
    }

    @Test func numericBounds() throws {
        let schema = #"{"minimum": 0, "maximum": 10}"#
        #expect(try violations("0", schema).isEmpty)
        #expect(try violations("10", schema).isEmpty)
        #expect(try violations("-1", schema) == ["$: expected at least 0, got -1"])
        #expect(try violations("10.5", schema) == ["$: expected at most 10, got 10.5"])
        let exclusive = #"{"exclusiveMinimum": 0, "exclusiveMaximum": 1}"#
        #expect(try violations("0.5", exclusive).isEmpty)
        #expect(try violations("0", exclusive) == ["$: expected more than 0, got 0"])
        #expect(try violations("1", exclusive) == ["$: expected less than 1, got 1"])
        #expect(try violations(#""x""#, schema).isEmpty, "bounds on numbers say nothing of strings")
    }

    @Test func stringLengthsCountCharacters() throws {
        let schema = #"{"minLength": 2, "maxLength": 3}"#
        #expect(try violations(#""ab""#, schema).isEmpty)
        #expect(try violations(#""été""#, schema).isEmpty)
        #expect(try violations(#""a""#, schema) == ["$: expected at least 2 characters, got 1"])
        #expect(try violations(#""abcd""#, schema) == ["$: expected at most 3 characters, got 4"])
    }

    @Test func arrayLengths() throws {
        let schema = #"{"minItems": 1, "maxItems": 2}"#
        #expect(try violations("[1]", schema).isEmpty)
        #expect(try violations("[]", schema) == ["$: expected at least 1 item, got 0"])
        #expect(try violations("[1, 2, 3]", schema) == ["$: expected at most 2 items, got 3"])
    }

    @Test func anyOfTakesAnyBranchAndOtherwiseSaysWhatEachExpected() throws {
        let schema = #"{"anyOf": [{"type": "string"}, {"type": "null"}]}"#
        #expect(try violations("null", schema).isEmpty)
        #expect(try violations(#""x""#, schema).isEmpty)
        #expect(try violations("5", schema) == ["$: expected string or null, got integer 5"])
        let shapes = #"""
            {"properties": {"shape": {"anyOf": [
              {"type": "object", "properties": {"radius": {"type": "number"}}, "required": ["radius"]},
              {"type": "string"}]}}}
            """#
        #expect(
            try violations(#"{"shape": {"radius": "big"}}"#, shapes) == [
                #"$.shape.radius: expected number, got string "big""#
            ], "the branch that went deepest")
    }

    @Test func allOfAndOneOf() throws {
        #expect(try violations("5", #"{"allOf": [{"type": "integer"}, {"minimum": 1}]}"#).isEmpty)
        #expect(
            try violations("0", #"{"allOf": [{"type": "integer"}, {"minimum": 1}]}"#) == [
                "$: expected at least 1, got 0"
            ])
        #expect(try violations("5", #"{"oneOf": [{"type": "integer"}, {"type": "string"}]}"#).isEmpty)
        #expect(
            try violations("5", #"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#) == [
                "$: matches 2 of the oneOf choices, not exactly one"
            ])
    }

    @Test func refsToDefsDefinitionsAndTheRoot() throws {
        let schema = #"""
            {"type": "object", "properties": {
               "person": {"$ref": "#/$defs/person"}, "pet": {"$ref": "#/definitions/pet"},
               "child": {"$ref": "#"}},
             "$defs": {"person": {"type": "object", "properties": {"age": {"type": "integer"}}}},
             "definitions": {"pet": {"enum": ["cat", "dog"]}}}
            """#
        #expect(try violations(#"{"person": {"age": 3}, "pet": "cat", "child": {"pet": "dog"}}"#, schema).isEmpty)
        #expect(
            try violations(#"{"person": {"age": "3"}, "pet": "cow", "child": {"pet": 1}}"#, schema) == [
                #"$.person.age: expected integer, got string "3""#,
                #"$.pet: expected one of "cat", "dog", got string "cow""#,
                #"$.child.pet: expected one of "cat", "dog", got integer 1"#,
            ])
        #expect(
            try violations("1", ##"{"$ref": "#/$defs/nothing"}"##) == [
                "$: cannot resolve $ref #/$defs/nothing in the schema"
            ])
        #expect(
            try violations("1", ##"{"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##).count == 1,
            "a loop ends")
    }

    @Test func unknownKeywordsAndBooleanSchemas() throws {
        #expect(try violations(#""x""#, #"{"type": "string", "format": "email", "x-anything": [1]}"#).isEmpty)
        #expect(try violations("1", "true").isEmpty)
        #expect(try violations("1", #"{"properties": {"a": false}}"#).isEmpty)
        #expect(
            try violations(#"{"a": 1}"#, #"{"properties": {"a": false}}"#) == [
                "$.a: not allowed here (the schema is false)"
            ])
    }

    @Test func validateThrowsTheFirstViolation() throws {
        let validator = JSONSchemaValidator(schema: ["type": "object", "required": ["a", "b"]] as JSONObject)
        #expect(throws: SchemaViolation(path: "$.a", "required, and missing")) { try validator.validate([:]) }
        try validator.validate(["a": 1, "b": 2])
    }
}
