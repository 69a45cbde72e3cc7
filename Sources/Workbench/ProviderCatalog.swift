import Foundation
import ResponsesAPI
import Yams

/// The servers the console can talk to, by name: `default` (the environment's `OPENAI_BASE_URL` and
/// `OPENAI_API_KEY`), then each of `config.yaml`'s `providers:`. A provider's key comes from the environment
/// variable its `key_env` names, or from `credentials.yaml` in the data directory (`NAME: KEY`), which is
/// refused unless only its owner can read it. Keys are never written anywhere else.
public struct ProviderCatalog: Sendable {
    public struct Provider: Sendable, Hashable {
        public var name: String
        public var baseURL: String
        public var keyEnv: String?
        public var organization: String?
        public var project: String?
        /// Header name and value template (`${VARIABLE}`), sorted by name.
        public var headers: [String: String]
        public var model: String?
        public var timeout: Double?
        public var connectTimeout: Double?
    }

    public static let defaultName = "default"
    public var providers: [Provider]
    /// Where the providers came from, for messages.
    public var source: String

    public func provider(named name: String) -> Provider? { providers.first { $0.name == name } }

    /// The built-in `default`, then the config file's providers in name order.
    public static func load(environment: AppEnvironment) throws(SettingError) -> ProviderCatalog {
        let config: ConfigFile?
        do { config = try ConfigFile.load(environment: environment) } catch { throw SettingError("\(error)") }
        var providers = [
            Provider(
                name: defaultName, baseURL: environment["OPENAI_BASE_URL"] ?? Configuration.defaultBaseURL,
                keyEnv: "OPENAI_API_KEY",
                organization: environment["OPENAI_ORG_ID"], project: environment["OPENAI_PROJECT_ID"], headers: [:],
                model: nil)
        ]
        let source = config.map { $0.url.path } ?? "the environment"
        for (name, value) in (config?.providers ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let problem = Self.nameProblem(name) {
                throw SettingError("\(source): providers.\(name.debugDescription.dropFirst().dropLast()): \(problem)")
            }
            let fields = value.objectValue ?? [:]
            var headers: [String: String] = [:]
            for (header, template) in fields["headers"]?.objectValue ?? [:] { headers[header] = template.stringValue }
            providers.append(
                Provider(
                    name: name, baseURL: fields["base_url"]?.stringValue ?? "", keyEnv: fields["key_env"]?.stringValue,
                    organization: fields["organization"]?.stringValue, project: fields["project"]?.stringValue,
                    headers: headers,
                    model: fields["model"]?.stringValue, timeout: fields["timeout"]?.doubleValue,
                    connectTimeout: fields["connect_timeout"]?.doubleValue))
        }
        return ProviderCatalog(providers: providers, source: source)
    }

    /// Why `name` cannot name a provider: `default` is the environment's; a name is typed after
    /// `--provider` and written in key paths, so it is letters, digits, `-` and `_`.
    static func nameProblem(_ name: String) -> String? {
        if name == defaultName {
            return
                "default is the environment's provider (OPENAI_BASE_URL and OPENAI_API_KEY) and cannot be redefined here: give this one another name"
        }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
        }
        return !name.isEmpty && allowed
            ? nil : "a provider's name is letters, digits, - and _ (it is typed after --provider)"
    }

    /// The client configuration for provider `name`: its URL, key, organization, project, timeouts and
    /// headers (their variables put in now).
    public func configuration(for name: String, environment: AppEnvironment) throws(SettingError) -> Configuration {
        guard let provider = provider(named: name) else {
            throw SettingError(
                "no provider \(name) (known: \(providers.map(\.name).joined(separator: ", ")); providers: in \(source))"
            )
        }
        if name == Self.defaultName {
            do { return try Configuration(environment: environment.variables) } catch {
                throw SettingError(error.message)
            }
        }
        var variables = environment.variables
        variables["OPENAI_BASE_URL"] = provider.baseURL
        variables["OPENAI_API_KEY"] = try key(for: provider, environment: environment)
        variables["OPENAI_ORG_ID"] = provider.organization
        variables["OPENAI_PROJECT_ID"] = provider.project
        if let timeout = provider.timeout { variables["OPENRESPONSES_TIMEOUT"] = String(timeout) }
        if let connect = provider.connectTimeout { variables["OPENRESPONSES_CONNECT_TIMEOUT"] = String(connect) }
        var configuration: Configuration
        do { configuration = try Configuration(environment: variables) } catch {
            throw SettingError("providers.\(name): \(error.message)")
        }
        for (header, template) in provider.headers.sorted(by: { $0.key < $1.key }) {
            configuration.extraHeaders.append(
                (
                    header,
                    try EnvironmentTemplate.expand(
                        template, environment: environment, keyPath: "providers.\(name).headers.\(header)")
                ))
        }
        return configuration
    }

    /// The provider's key: its `key_env` variable, else its entry in credentials.yaml, else none.
    func key(for provider: Provider, environment: AppEnvironment) throws(SettingError) -> String? {
        if let variable = provider.keyEnv {
            guard let key = environment[variable] else {
                throw SettingError(
                    "providers.\(provider.name).key_env: the environment variable \(variable) is not set")
            }
            return key
        }
        return try Self.credentials(environment: environment)[provider.name]
    }

    /// `credentials.yaml` in the data directory (`NAME: KEY`, or `NAME: {key: KEY}`); refused when anyone but
    /// its owner may read it.
    public static func credentials(environment: AppEnvironment) throws(SettingError) -> [String: String] {
        let path = environment.dataDirectory.appendingPathComponent("credentials.yaml").path
        // stat follows a symbolic link: the mode and owner checked are the file's that is read.
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return [:] }
            throw SettingError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SettingError("\(path) is not a file (a directory?): it should hold NAME: KEY lines")
        }
        guard info.st_uid == geteuid() else {
            throw SettingError("\(path) holds keys but is owned by user \(info.st_uid), not by you: it is not read")
        }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else {
            throw SettingError(
                "\(path) has mode \(String(mode, radix: 8)) and holds keys: chmod 600 \(path) (it is not read until then)"
            )
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SettingError("cannot read \(path): \(error.localizedDescription)")
        }
        let document: Any?
        do { document = try Yams.load(yaml: text) } catch {
            // Where, and what is wrong, but never the text: the line quoted would be a key.
            guard let error = error as? YamlError,
                case let diagnostic = PresetValidator.diagnostic(for: error, path: path),
                !diagnostic.message.hasPrefix("cannot read"), diagnostic.message != "\(error)"
            else { throw SettingError("\(path): not valid YAML (its text is not shown: it holds keys)") }
            throw SettingError(
                "\(path):\(diagnostic.location.line):\(diagnostic.location.column): \(diagnostic.message)")
        }
        guard let entries = document as? [String: Any] else {
            if document == nil { return [:] }
            throw SettingError("\(path): expected a mapping of provider names to keys")
        }
        var keys: [String: String] = [:]
        for (name, value) in entries {
            if let key = value as? String {
                keys[name] = key
            } else if let fields = value as? [String: Any], let key = fields["key"] as? String {
                keys[name] = key
            } else {
                throw SettingError("\(path): \(name): expected a key (NAME: sk-...) or key: under it")
            }
        }
        return keys
    }
}
