import Foundation

/// Values such as MCP headers that name environment variables instead of holding secrets:
/// `"Bearer ${GITHUB_TOKEN}"` is sent with the variable's value put in at send time.
public enum EnvironmentTemplate {
    /// The variable names referenced by `template`.
    public static func variables(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            names.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return names
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// Why `value` cannot stand in a preset, or nil: it must reference at least one variable, and
    /// every reference must be a valid name.
    public static func literalProblem(_ value: String) -> String? {
        let names = variables(in: value)
        if names.isEmpty {
            return "literal values are not allowed here (secrets stay out of presets); name an environment variable, "
                + "as in \"Bearer ${MCP_TOKEN}\""
        }
        if let bad = names.first(where: { !isValidName($0) }) {
            return "'${\(bad)}' is not an environment variable name"
        }
        return nil
    }

    /// `template` with every `${NAME}` replaced by its value; throws naming the first unset variable.
    public static func expand(_ template: String, environment: AppEnvironment, keyPath: String) throws(SettingError)
        -> String
    {
        var result = ""
        var rest = template[...]
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            result += rest[..<start.lowerBound]
            let name = String(rest[start.upperBound..<end])
            guard let value = environment[name] else {
                throw SettingError("\(keyPath): the environment variable \(name) is not set")
            }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
