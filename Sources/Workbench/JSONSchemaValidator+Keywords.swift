import ResponsesAPI

extension JSONSchemaValidator {
    /// What is wrong with `value`'s type under `type` (a name or a list of names), or nil.
    func typeProblem(_ value: JSONValue, _ type: JSONValue?) -> String? {
        let names: [String]
        switch type {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = list.compactMap(\.stringValue)
        default: return nil
        }
        guard !names.isEmpty, !names.contains(where: { Self.value(value, isA: $0) }) else { return nil }
        return "expected \(Self.alternatives(names)), got \(Self.describe(value))"
    }

    static func value(_ value: JSONValue, isA type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("integer", .integer), ("number", .integer), ("number", .number):
            return true
        case ("integer", .number(let number)): return number.rounded() == number && number.isFinite
        default: return false
        }
    }

    /// What is wrong with `value` under `enum`, `const` and the bounds on numbers and strings, or nil.
    func valueProblem(_ value: JSONValue, _ keywords: JSONObject) -> String? {
        if let choices = keywords["enum"]?.arrayValue, !choices.contains(where: { Self.same($0, value) }) {
            let listed = choices.map(\.compactString).joined(separator: ", ")
            return "expected one of \(listed), got \(Self.describe(value))"
        }
        if let constant = keywords["const"], !Self.same(constant, value) {
            return "expected \(constant.compactString), got \(Self.describe(value))"
        }
        if let number = value.doubleValue {
            return numberProblem(value, number, keywords)
        }
        if case .string(let text) = value {
            let length = text.unicodeScalars.count
            if let minimum = keywords["minLength"]?.intValue, length < minimum {
                return "expected at least \(Self.characters(minimum)), got \(length)"
            }
            if let maximum = keywords["maxLength"]?.intValue, length > maximum {
                return "expected at most \(Self.characters(maximum)), got \(length)"
            }
        }
        return nil
    }

    func numberProblem(_ value: JSONValue, _ number: Double, _ keywords: JSONObject) -> String? {
        let bounds: [(keyword: String, fails: (Double, Double) -> Bool, words: String)] = [
            ("minimum", { $0 < $1 }, "at least"), ("maximum", { $0 > $1 }, "at most"),
            ("exclusiveMinimum", { $0 <= $1 }, "more than"), ("exclusiveMaximum", { $0 >= $1 }, "less than"),
        ]
        for bound in bounds {
            guard let limit = keywords[bound.keyword], let limitValue = limit.doubleValue,
                bound.fails(number, limitValue)
            else { continue }
            return "expected \(bound.words) \(limit.compactString), got \(value.compactString)"
        }
        return nil
    }

    /// `anyOf`, `oneOf` and `allOf`.
    func checkCombinations(
        _ value: JSONValue, _ keywords: JSONObject, at path: String, depth: Int, into found: inout [SchemaViolation]
    ) {
        for branch in keywords["allOf"]?.arrayValue ?? [] {
            check(value, against: branch, at: path, depth: depth, into: &found)
        }
        for keyword in ["anyOf", "oneOf"] {
            guard let branches = keywords[keyword]?.arrayValue, !branches.isEmpty else { continue }
            let results = branches.map { branch in
                var branchFound: [SchemaViolation] = []
                check(value, against: branch, at: path, depth: depth, into: &branchFound)
                return branchFound
            }
            let matching = results.filter(\.isEmpty).count
            if keyword == "oneOf", matching > 1 {
                found.append(SchemaViolation(path: path, "matches \(matching) of the oneOf choices, not exactly one"))
            }
            guard matching == 0 else { continue }
            found.append(Self.bestFailure(results, keyword: keyword, at: path, value: value))
        }
    }

    /// One violation for a value no branch of `anyOf`/`oneOf` takes: when each branch fails at the value
    /// itself, their expectations together ("expected string or null, got integer 5"); else the failure of
    /// the branch that went deepest into the value (the one the value was most likely meant for).
    static func bestFailure(_ results: [[SchemaViolation]], keyword: String, at path: String, value: JSONValue)
        -> SchemaViolation
    {
        let firsts = results.compactMap(\.first)
        if firsts.allSatisfy({ $0.path == path }) {
            let expectations = firsts.compactMap { violation -> String? in
                guard violation.message.hasPrefix("expected "), let got = violation.message.range(of: ", got ")
                else { return nil }
                return String(violation.message[..<got.lowerBound].dropFirst("expected ".count))
            }
            if expectations.count == firsts.count {
                return SchemaViolation(path: path, "expected \(alternatives(expectations)), got \(describe(value))")
            }
            return SchemaViolation(path: path, "matches none of the \(keyword) choices (\(firsts[0].message))")
        }
        let deepest = firsts.max { $0.path.count < $1.path.count }!
        return deepest
    }

    /// Equal as JSON values: numbers by value (1 and 1.0 are the same), objects whatever their key order.
    static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.integer, .number), (.number, .integer): return left.doubleValue == right.doubleValue
        case (.array(let first), .array(let second)):
            return first.count == second.count && zip(first, second).allSatisfy { same($0, $1) }
        case (.object(let first), .object(let second)):
            return first.count == second.count
                && first.allSatisfy { key, value in second[key].map { same(value, $0) } ?? false }
        default: return left == right
        }
    }

    /// `value` as a violation shows it: its type, and its value when short (`string "forty"`, `integer 5`).
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "boolean \(flag)"
        case .integer(let number): return "integer \(number)"
        case .number: return "number \(value.compactString)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "string " + JSONValue.string(shown).compactString
        case .array(let elements): return "an array of \(items(elements.count))"
        case .object: return "an object"
        }
    }

    /// "a", "a or b", "a, b or c".
    static func alternatives(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    static func characters(_ count: Int) -> String {
        count == 1 ? "1 character" : "\(count) characters"
    }
}
