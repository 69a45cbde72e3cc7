import ArgumentParser

/// `--json`, on every subcommand that can print JSON instead of lines for a person.
struct OutputOptions: ParsableArguments, Sendable {
    @Flag(help: "Print JSON.") var json = false
}
