import Foundation
import ResponsesAPI

/// The layers a session's settings come from, lowest first: built-in defaults < config file < preset <
/// command-line flags < the console's `/set`. Flags set where a session starts and `/set` changes it from
/// there: the user's latest explicit word wins (`/reset KEY` goes back to the flag's value). `effective`
/// merges them; `sources` says which layer each value came from.
public struct SettingsStack: Sendable {
    public var defaults: SettingsLayer
    public var config: SettingsLayer?
    /// The preset in use and its layer.
    public private(set) var preset: Preset?
    public private(set) var presetLayer: SettingsLayer?
    public var session: SettingsLayer
    public var flags: SettingsLayer
    /// Values of the preset's `{{variables}}` (`-v NAME=VALUE`, `/var`), over its defaults.
    public var variables: [String: String] = [:] {
        didSet { use(preset) }
    }
    /// The preset with its variables replaced, and those still without a value.
    private var resolvedPreset: (preset: Preset, missing: [MissingVariable])?
    /// The config file's model aliases: `effective` resolves the model through them, here and nowhere else.
    public var aliases = ModelAliases()

    public init(
        defaults: SettingsLayer, config: SettingsLayer? = nil, preset: Preset? = nil, flags: SettingsLayer? = nil
    ) {
        self.defaults = defaults
        self.config = config
        self.session = SettingsLayer(label: "/set")
        self.flags = flags ?? SettingsLayer(label: "command line")
        use(preset)
    }

    /// The built-in defaults: `OPENRESPONSES_MODEL` or gpt-4.1-mini, streaming, reasoning summaries and
    /// the usage line shown.
    public static func builtInDefaults(environment: AppEnvironment) -> SettingsLayer {
        // The chosen provider's model (providers: in config.yaml) is the default on its server.
        let providerModel = environment.provider.flatMap { name in
            try? ProviderCatalog.load(environment: environment).provider(named: name)?.model
        }
        return SettingsLayer(
            label: "default",
            template: [
                "model": .string(environment["OPENRESPONSES_MODEL"] ?? providerModel ?? TurnSettings.defaultModel)
            ],
            console: ["stream": true, "show_reasoning": true, "show_usage": true])
    }

    /// A session's stack: defaults, the config file if there is one, the preset named (else the config
    /// file's), and the command-line flags. Throws what is wrong with the config file or the preset.
    public static func load(environment: AppEnvironment, preset name: String?, flags: SettingsLayer) throws(PresetError)
        -> SettingsStack
    {
        let config = try ConfigFile.load(environment: environment)
        var preset: Preset?
        if let name = name ?? config?.preset {
            preset = try PresetLibrary(environment: environment).load(name)
        }
        let configLayer = config.map {
            SettingsLayer(
                label: "config \($0.url.path)", template: $0.template, console: $0.console, extraBody: $0.extraBody,
                library: $0.library)
        }
        var stack = SettingsStack(
            defaults: builtInDefaults(environment: environment), config: configLayer, preset: preset, flags: flags)
        stack.aliases = config?.aliases ?? ModelAliases()
        return stack
    }

    public mutating func use(_ preset: Preset?) {
        self.preset = preset
        resolvedPreset = preset?.resolvingVariables(variables)
        presetLayer = resolvedPreset.map(\.preset).map {
            SettingsLayer(
                label: "preset \($0.name)", template: $0.template, console: $0.console, extraBody: $0.extraBody)
        }
    }

    /// Settings with nothing set, for the layers to fill.
    static var empty: TurnSettings {
        var settings = TurnSettings()
        settings.template = [:]
        settings.console = [:]
        return settings
    }

    var layers: [SettingsLayer] {
        [defaults] + [config, presetLayer].compactMap { $0 } + [flags, session]
    }

    /// The settings of the next turn, the model an alias names resolved to its id.
    public var effective: TurnSettings {
        var settings = Self.empty
        for layer in layers { layer.apply(to: &settings) }
        settings.preset = preset?.name
        settings.inputTemplate = resolvedPreset?.preset.inputTemplate
        settings.missingVariables = resolvedPreset?.missing ?? []
        if let named = settings.template["model"]?.stringValue { settings.model = aliases.resolve(named) }
        return settings
    }

    /// The model as the layers name it, before aliases: `fast` where `effective.model` is `gpt-4.1-mini`.
    public var namedModel: String {
        var settings = Self.empty
        for layer in layers { layer.apply(to: &settings) }
        return settings.model
    }

    /// Each leaf of the effective settings with the label of the layer that last changed it.
    public var sources: [String: String] {
        var settings = Self.empty
        var result: [String: String] = [:]
        for layer in layers {
            let before = Dictionary(settings.leaves.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            layer.apply(to: &settings)
            let after = settings.leaves
            let present = Set(after.map(\.key))
            for key in result.keys where !present.contains(key) { result[key] = nil }
            for (key, value) in after where before[key] != value { result[key] = layer.label }
        }
        return result
    }
}
