import ResponsesAPI

/// `aliases:` in `config.yaml`: short names for model ids (`fast: gpt-4.1-mini`). `SettingsStack.effective`
/// resolves the model through them, so whatever names the model (`--model`, `/set model`, `/model`, a preset's
/// `model:`, the config file's, `OPENRESPONSES_MODEL`) may name an alias, and the request, the inspector and the
/// price table all see the real id. An alias named like a real model id wins over it. An alias points at a model
/// id, never at another alias (nor at itself): the config file refuses that with the alias's line and column.
public struct ModelAliases: Sendable, Hashable {
    /// Alias → model id.
    public var targets: [String: String]

    public init(_ targets: [String: String] = [:]) {
        self.targets = targets
    }

    /// The model id `name` stands for: its alias's target, else `name` as written.
    public func resolve(_ name: String) -> String {
        targets[name] ?? name
    }

    /// Every alias, sorted.
    public var names: [String] { targets.keys.sorted() }

    /// The aliases that point at `model`, sorted.
    public func names(for model: String) -> [String] {
        targets.filter { $0.value == model }.map(\.key).sorted()
    }

    /// `fast → gpt-4.1-mini` when `name` is an alias, else `name`.
    public func described(_ name: String) -> String {
        targets[name].map { "\(name) → \($0)" } ?? name
    }

    /// What is wrong with `aliases:` as written, by alias: an empty name or target, or a target that is an
    /// alias itself (chains and loops are refused rather than followed).
    static func problems(in written: JSONObject) -> [(alias: String, message: String)] {
        written.keys.sorted().compactMap { alias in
            let target = written[alias]?.stringValue ?? ""
            if alias.isEmpty || alias.contains(where: \.isWhitespace) {
                return (alias, "'\(alias)' is not a usable alias name (no spaces)")
            }
            if target.isEmpty { return (alias, "an alias needs a model id (fast: gpt-4.1-mini)") }
            if target == alias { return (alias, "the alias '\(alias)' points at itself; name a model id") }
            if written[target] != nil {
                return (alias, "'\(target)' is an alias too; an alias points at a model id, not at another alias")
            }
            return nil
        }
    }
}
