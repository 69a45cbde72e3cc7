import ResponsesAPI

extension SettingsLayer {
    /// The layer of command-line flags: `--set KEY=VALUE` assignments, then `--model`, `--instructions`
    /// and `--no-stream`, which win over them. Throws naming the bad `--set`.
    public static func commandLine(
        model: String? = nil, instructions: String? = nil, stream: Bool? = nil, assignments: [String] = []
    ) throws(SettingError) -> SettingsLayer {
        var layer = SettingsLayer(label: "command line")
        for assignment in assignments {
            do {
                let (_, key, value) = try SettingsRegistry.parseAssignment(assignment)
                layer.assign(key, value)
            } catch {
                throw SettingError("--set \(assignment): \(error.message)")
            }
        }
        if let model { layer.assign("model", .string(model)) }
        if let instructions { layer.assign("instructions", .string(instructions)) }
        if let stream { layer.assign("console.stream", .bool(stream)) }
        return layer
    }
}
