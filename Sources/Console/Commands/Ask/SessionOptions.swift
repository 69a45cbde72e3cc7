import ResponsesAPI
import Workbench

/// What `chat` and `ask` take alike from the command line to set up a session: the flags' layer over the
/// config file and the preset.
public struct SessionOptions: Sendable {
    public var model: String?
    public var preset: String?
    public var instructions: String?
    /// False for `--no-stream`; nil leaves the preset's (or the default's) choice.
    public var stream: Bool?
    /// `--set KEY=VALUE` assignments.
    public var assignments: [String]
    /// `-v NAME=VALUE`: values of the preset's `{{variables}}`.
    public var variables: [String]
    /// The request's `text.format` (`ask --schema`), over the preset's.
    public var textFormat: JSONObject?

    public init(
        model: String? = nil, preset: String? = nil, instructions: String? = nil, stream: Bool? = nil,
        assignments: [String] = [], variables: [String] = []
    ) {
        self.variables = variables
        self.model = model
        self.preset = preset
        self.instructions = instructions
        self.stream = stream
        self.assignments = assignments
    }

    /// Defaults < config file < preset < these flags. A bad flag, config file or preset is a usage error
    /// whose message has one `error:` line per problem.
    public func stack(environment: AppEnvironment) throws(ConsoleError) -> SettingsStack {
        do {
            let flags = try SettingsLayer.commandLine(
                model: model, instructions: instructions, stream: stream, assignments: assignments,
                textFormat: textFormat)
            var stack = try SettingsStack.load(environment: environment, preset: preset, flags: flags)
            stack.variables = try Self.variableValues(variables)
            return stack
        } catch let error as SettingError {
            throw ConsoleError(error.message, exitStatus: .usage)
        } catch {
            throw ConsoleError("\(error)", exitStatus: .usage)
        }
    }

    /// `-v NAME=VALUE` pairs as values (the last of a name wins); a pair without `=` or with a name that
    /// cannot be a variable is a usage error naming the flag.
    static func variableValues(_ pairs: [String]) throws(ConsoleError) -> [String: String] {
        var values: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), TemplateVariables.isName(pair[..<equals]) else {
                throw ConsoleError(
                    "-v \(pair): give a variable as NAME=VALUE (a name is a letter or _, then letters, digits, _ or -)")
            }
            values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return values
    }
}
