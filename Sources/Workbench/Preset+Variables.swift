import Foundation
import Library
import ResponsesAPI

/// A variable a preset's text uses that has no value: its name, and where the preset first writes it.
public struct MissingVariable: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var location: SourceLocation?

    public var description: String {
        (location.map { "\($0): " } ?? "") + "{{\(name)}} has no value: give it with -v \(name)=VALUE "
            + "(/var \(name) VALUE in the console) or a default under the preset's variables:"
    }
}

extension Preset {
    /// The defaults under `variables:` (a variable written there with no value, `~`, has none).
    public var variableDefaults: [String: String] {
        var defaults: [String: String] = [:]
        for (name, value) in variables {
            switch value {
            case .string(let text): defaults[name] = text
            case .integer(let number): defaults[name] = String(number)
            case .number(let number): defaults[name] = "\(number)"
            case .bool(let flag): defaults[name] = flag ? "true" : "false"
            default: break
            }
        }
        return defaults
    }

    /// The texts placeholders are read in: the instructions, the input template and tool descriptions.
    var templatedTexts: [String] {
        var texts = [template["instructions"]?.stringValue, inputTemplate].compactMap { $0 }
        for tool in template["tools"]?.arrayValue ?? [] {
            if let description = tool["description"]?.stringValue { texts.append(description) }
        }
        return texts
    }

    /// The variables the preset's texts use, in the order they first appear (`{{input}}` not among them).
    public var usedVariables: [String] {
        var names: [String] = []
        for text in templatedTexts {
            for placeholder in TemplateVariables.placeholders(in: text)
            where placeholder.name != TemplateVariables.inputName && !names.contains(placeholder.name) {
                names.append(placeholder.name)
            }
        }
        return names
    }

    /// The preset with every variable replaced in its instructions, input template (where `{{input}}` stays
    /// for the user's message) and tool descriptions: `values` over the defaults. Variables with no value
    /// are left as written and returned, each with where the preset writes it.
    public func resolvingVariables(_ values: [String: String]) -> (preset: Preset, missing: [MissingVariable]) {
        let all = variableDefaults.merging(values) { $1 }
        var resolved = self
        var missing: [String] = []
        func substitute(_ text: String) -> String {
            let result = TemplateVariables.substitute(text, values: all, keeping: [TemplateVariables.inputName])
            for name in result.missing where !missing.contains(name) { missing.append(name) }
            return result.text
        }
        if let instructions = template["instructions"]?.stringValue {
            resolved.template["instructions"] = .string(substitute(instructions))
        }
        resolved.inputTemplate = inputTemplate.map(substitute)
        if case .array(var tools)? = template["tools"] {
            for index in tools.indices {
                if let description = tools[index]["description"]?.stringValue, case .object(var tool) = tools[index] {
                    tool["description"] = .string(substitute(description))
                    tools[index] = .object(tool)
                }
            }
            resolved.template["tools"] = .array(tools)
        }
        return (resolved, missing.map { MissingVariable(name: $0, location: variableLocations[$0]) })
    }

    /// What `presets validate` says of the variables: those declared under `variables:` that no text uses,
    /// and those used that are not declared (each must then be given every time).
    public var variableWarnings: [PresetDiagnostic] {
        let used = usedVariables
        var warnings: [PresetDiagnostic] = []
        let path = url?.path ?? name
        for name in variables.keys where !used.contains(name) {
            warnings.append(
                PresetDiagnostic(
                    location: variableLocations[name] ?? declarationLocations[name]
                        ?? SourceLocation(path: path, line: 1, column: 1),
                    keyPath: "variables.\(name)",
                    message: "declared but not used in instructions, input_template or tool descriptions"))
        }
        for name in used where variables[name] == nil {
            warnings.append(
                PresetDiagnostic(
                    location: variableLocations[name] ?? SourceLocation(path: path, line: 1, column: 1), keyPath: "",
                    message:
                        "{{\(name)}} is not declared under variables: (it must be given with -v \(name)=VALUE every time)"
                ))
        }
        return warnings
    }

    /// The user's message put into the input template: at each `{{input}}`, or after the template and a
    /// blank line when it has none. The message itself is never read for placeholders.
    public static func applying(inputTemplate: String, to message: String) -> String {
        let slots = TemplateVariables.placeholders(in: inputTemplate).filter { $0.name == TemplateVariables.inputName }
        guard !slots.isEmpty else { return inputTemplate + "\n\n" + message }
        var result = ""
        var copied = inputTemplate.startIndex
        for slot in slots {
            result += inputTemplate[copied..<slot.range.lowerBound]
            result += message
            copied = slot.range.upperBound
        }
        return result + inputTemplate[copied...]
    }
}

extension TurnSettings {
    /// The user's input put into the preset's input template: a text, or the first text part of a user
    /// message that is not a fragment (the message ask sends with a piped file or fragments); a message of
    /// fragments alone gets the template, with an empty `{{input}}`, after them. Fragments are never put
    /// into it. Anything else (tool results) is left as it is.
    public func templated(_ input: JSONValue) -> JSONValue {
        guard let inputTemplate else { return input }
        switch input {
        case .string(let text):
            return .string(Preset.applying(inputTemplate: inputTemplate, to: text))
        case .array(var items):
            guard let message = items.firstIndex(where: { $0["role"]?.stringValue == "user" }),
                case .object(var fields) = items[message], case .array(var content)? = fields["content"]
            else { return input }
            let texts = content.indices.filter { content[$0]["type"]?.stringValue == "input_text" }
            if let part = texts.first(where: { !Fragment.isBlock(content[$0]["text"]?.stringValue ?? "") }),
                case .object(var text) = content[part], let words = text["text"]?.stringValue
            {
                text["text"] = .string(Preset.applying(inputTemplate: inputTemplate, to: words))
                content[part] = .object(text)
            } else if let last = texts.last {
                let templated = Preset.applying(inputTemplate: inputTemplate, to: "")
                content.insert(["type": "input_text", "text": .string(templated)], at: last + 1)
            } else {
                return input
            }
            fields["content"] = .array(content)
            items[message] = .object(fields)
            return .array(items)
        default:
            return input
        }
    }
}
