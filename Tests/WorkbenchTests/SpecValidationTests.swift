import Foundation
import ResponsesAPI
import TestSupport
import Testing
import Workbench

/// Every setting, at each of its values, builds a body that OpenAI's CreateResponse schema accepts
/// (checked with python3's jsonschema against ../shared/conformance/openapi; skipped when either is absent).
@Suite(
    "Bodies against the OpenAPI spec",
    .enabled(if: SpecValidation.available, "../shared or python3 jsonschema is absent"))
struct SpecValidationTests {
    @Test func everySettingAtEveryValueBuildsAValidBody() async throws {
        var bodies: [JSONValue] = []
        func body(_ assignments: [String]) throws -> JSONValue {
            var settings = TurnSettings(model: "gpt-5.1")
            for assignment in assignments { try settings.apply(assignment) }
            return PayloadBuilder().build(settings: settings, conversation: nil, input: "hello").json
        }
        bodies.append(try body([]))
        for setting in SettingsRegistry.all where setting.apiField != nil {
            let key = setting.key.hasSuffix(".*") ? String(setting.key.dropLast()) + "example" : setting.key
            for value in SpecValidation.samples(for: setting) {
                // A setting the API takes only beside another gets that one too.
                let companion =
                    key.hasPrefix("prompt.") && key != "prompt.id"
                    ? ["prompt.id=pmpt_123"]
                    : key.hasPrefix("moderation.policy.") ? ["moderation.model=omni-moderation-latest"] : []
                bodies.append(try body(["\(key)=\(value)"] + companion))
            }
        }
        let problems = try await SpecValidation.validate(bodies)
        #expect(problems.isEmpty, "\(problems)")
        #expect(bodies.count > 40)
    }

    @Test func theValidatorCatchesABadBody() async throws {
        let problems = try await SpecValidation.validate([
            ["model": "m", "input": "x", "reasoning": ["effort": "huge"]]
        ])
        #expect(problems.contains("reasoning"))
    }
}

/// Values to try for each setting, by its kind. (`SpecValidation` itself is in TestSupport: BinaryTests
/// checks the bodies the binary prints with it.)
extension SpecValidation {
    static func samples(for setting: SettingDescriptor) -> [String] {
        switch setting.kind {
        case .string: [setting.key == "model" ? "gpt-5.1" : setting.key == "conversation" ? "conv_123" : "pmpt_123"]
        case .integer(let minimum, _): [String(minimum), String(minimum * 100)]
        case .number(let range):
            [JSONValue.number(range.lowerBound).compactString, JSONValue.number(range.upperBound).compactString]
        case .boolean: ["true", "false"]
        case .choice(let values): values
        case .stringList: ["vs_1,vs_2"]
        case .choiceList(let values): [values.joined(separator: ",")]
        }
    }
}
