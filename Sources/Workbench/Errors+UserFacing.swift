import ResponsesAPI

/// A preset or config file that cannot be used is the user's input to fix: a usage error, one line per problem.
extension PresetError: UserFacingError {
    public var userMessage: String { description }
    public var exitStatus: ExitStatus { .usage }
}

/// A setting that cannot be set or sent (`/set`, a flag, a preset's value): the user's input to fix.
extension SettingError: UserFacingError {
    public var userMessage: String { message }
    public var exitStatus: ExitStatus { .usage }
}

/// A `--schema` that cannot be used is the user's input to fix.
extension SchemaArgumentError: UserFacingError {
    public var userMessage: String { description }
    public var exitStatus: ExitStatus { .usage }
}
