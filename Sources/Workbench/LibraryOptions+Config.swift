import Library
import ResponsesAPI

extension LibraryOptions {
    /// The config file's `library:` options (the defaults when there is no config file), with `flags` (a
    /// command's, by setting key) over them. Throws the config file's `PresetError` or the option's
    /// `LibraryServiceError`, each naming where the value came from.
    public static func configured(environment: AppEnvironment, flags: JSONObject = [:]) throws -> LibraryOptions {
        let config = try ConfigFile.load(environment: environment)
        var merged = config?.library ?? [:]
        for (key, value) in flags { merged[key] = value }
        let source =
            flags.isEmpty
            ? (config.map { "\($0.url.path) (library:)" } ?? "the defaults")
            : "the command line" + (config.map { " over \($0.url.path)" } ?? "")
        return try LibraryOptions(merged, source: source)
    }
}
