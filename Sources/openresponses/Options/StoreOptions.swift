import ArgumentParser

/// `--local`, on every `inspect` subcommand that can read a team's store (Docs/team.md).
struct StoreOptions: ParsableArguments, Sendable {
    @Flag(help: "Read this machine's store, even when inspector.url names a team's PostgreSQL.") var local = false
}
