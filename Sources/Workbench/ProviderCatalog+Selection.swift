import Foundation

/// Which provider a session talks to. The user's latest explicit word wins, as with settings:
/// `--provider` (or `OPENRESPONSES_PROVIDER` from the user's shell: the environment's `provider`) over the
/// preset's `provider:` over the config file's `provider:`, else the built-in `default`.
extension ProviderCatalog {
    /// The provider's name for a session started with preset `presetName` (nil: the config file's
    /// preset, if any); nil when nothing names one. A name written in a preset or the config file that
    /// `providers:` lacks is an error at the line that writes it.
    public static func selectedName(environment: AppEnvironment, preset presetName: String?) throws(PresetError)
        -> String?
    {
        if let explicit = environment.provider { return explicit }
        let config = try ConfigFile.load(environment: environment)
        var preset: Preset?
        if let name = presetName ?? config?.preset {
            preset = try PresetLibrary(environment: environment).load(name)
        }
        if let preset, preset.provider != nil {
            try checkProvider(of: preset, environment: environment)
            return preset.provider
        }
        guard let config, let name = config.provider else { return nil }
        try check(
            name, writtenAt: config.providerLocation ?? SourceLocation(path: config.url.path, line: 1, column: 1),
            environment: environment)
        return name
    }

    /// Throws when `preset` names a provider that config.yaml's `providers:` lacks.
    public static func checkProvider(of preset: Preset, environment: AppEnvironment) throws(PresetError) {
        guard let name = preset.provider else { return }
        let location =
            preset.providerLocation ?? SourceLocation(path: preset.url?.path ?? preset.name, line: 1, column: 1)
        try check(name, writtenAt: location, environment: environment)
    }

    private static func check(_ name: String, writtenAt location: SourceLocation, environment: AppEnvironment)
        throws(PresetError)
    {
        let catalog: ProviderCatalog
        do { catalog = try load(environment: environment) } catch { throw PresetError(message: error.message) }
        guard catalog.provider(named: name) == nil else { return }
        throw PresetError(diagnostics: [
            PresetDiagnostic(
                location: location, keyPath: "provider",
                message:
                    "'\(name)' is not a provider (known: \(catalog.providers.map(\.name).joined(separator: ", ")); providers: in \(catalog.source))"
            )
        ])
    }
}
