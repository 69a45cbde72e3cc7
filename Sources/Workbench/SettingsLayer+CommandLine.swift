import ResponsesAPI

extension SettingsLayer {
    /// The layer of command-line flags: `--set KEY=VALUE` assignments, then `--model`, `--instructions`
    /// and `--no-stream`, which win over them, and `text.format` from `ask --schema` (a `json_schema`
    /// format, as a preset's `text: {format: ...}` sets it). Throws naming the bad `--set`, or a `--set
    /// text.format` beside a schema.
    public static func commandLine(
        model: String? = nil, instructions: String? = nil, stream: Bool? = nil, assignments: [String] = [],
        textFormat: JSONObject? = nil
    ) throws(SettingError) -> SettingsLayer {
        var layer = SettingsLayer(label: "command line")
        if let textFormat { layer.template["text"] = ["format": .object(textFormat)] }
        for assignment in assignments {
            do throws(SettingError) {
                let (_, key, value) = try SettingsRegistry.parseAssignment(assignment)
                if key == "text.format", textFormat != nil {
                    throw SettingError("--schema sets text.format already: give one or the other")
                }
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
