import ArgumentParser
import Workbench

/// `--provider NAME`, on every subcommand that talks to a server of the user's choosing: a name from
/// config.yaml's providers:, or default. Declared once; its help says what the server is for, which is the
/// area's (`Role`).
struct ProviderOptions<Role: ProviderRole>: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp(Role.help)) var provider: String?

    /// This process's environment with `--provider`'s server chosen, if one was named.
    var environment: AppEnvironment { processEnvironment.choosing(provider: provider) }
}

/// What `--provider`'s server is for, in its help.
protocol ProviderRole: Sendable {
    static var help: String { get }
}

/// `files`, `stores` and `containers`: whose objects these are.
enum FilesServer: ProviderRole {
    static let help = "The server whose files or stores these are: a name from config.yaml's providers:, or default."
}

/// `library`: the server for embeddings, answers and vector stores.
enum LibraryServer: ProviderRole {
    static let help =
        "The server (a name from config.yaml's providers:, or default) for embeddings, answers and stores."
}

/// `history delete` and `ledger`: the server whose objects are deleted or asked about.
enum NamedServer: ProviderRole {
    static let help = "The server (a name from config.yaml's providers:, or default)."
}

/// `attach` and `cancel`: the server a background response is asked of.
enum JobServer: ProviderRole {
    static let help = "Ask this provider (by default: the one the ledger says the job was created on)."
}

/// `proxy`: the server requests are forwarded to.
enum UpstreamServer: ProviderRole {
    static let help = "Forward to this provider (a name from config.yaml's providers:, or default)."
}
