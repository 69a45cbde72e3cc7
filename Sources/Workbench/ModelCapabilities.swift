import ResponsesAPI

/// What a model family accepts, for the settings it rejects: reasoning models (o1, o3, o4-mini, the gpt-5
/// family, codex) reject `temperature` and `top_p`; the gpt-4 families reject `reasoning`. A model this
/// table does not know (a local server's) gets every field as set.
public enum ModelCapabilities {
    public enum Family: Sendable, Hashable {
        case reasoning, nonReasoning, unknown
    }

    public static func family(of model: String) -> Family {
        let name = model.lowercased().split(separator: "/").last.map(String.init) ?? model.lowercased()
        if ["o1", "o3", "o4", "gpt-5", "codex"].contains(where: {
            name == $0 || name.hasPrefix($0 + "-") || name.hasPrefix($0 + ".")
        }) {
            return .reasoning
        }
        if ["gpt-4", "gpt-3.5"].contains(where: {
            name == $0 || name.hasPrefix($0 + "-") || name.hasPrefix($0 + ".") || name.hasPrefix($0 + "o")
        }) {
            return .nonReasoning
        }
        return .unknown
    }

    /// Removes from `request` what its model rejects; returns one notice per removed field.
    public static func adjust(_ request: inout CreateResponseRequest) -> [String] {
        guard let model = request.model else { return [] }
        var notices: [String] = []
        switch family(of: model) {
        case .reasoning:
            for field in ["temperature", "top_p"] where request.body[field] != nil {
                request.body[field] = nil
                notices.append("dropped \(field): \(model) is a reasoning model, which rejects it")
            }
        case .nonReasoning:
            if request.body["reasoning"] != nil {
                request.body["reasoning"] = nil
                notices.append("dropped reasoning: \(model) is not a reasoning model, so it rejects reasoning settings")
            }
        case .unknown:
            break
        }
        return notices
    }
}
