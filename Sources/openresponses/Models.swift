import ArgumentParser
import Console

struct Models: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "The models a provider serves, with the aliases that name them and their prices.",
        discussion: """
            Asks the provider's GET /models and lists each model with the aliases config.yaml's aliases: gives it \
            and the price table's input, cached input and output prices (USD per 1M tokens; - when the table has \
            none). An alias's model the server does not list is shown too. When the server cannot be asked (no \
            key, no network), that is said, the aliases and the price table's models are listed, and the exit \
            status is 1.
            """)

    @OptionGroup var server: ProviderOptions<NamedServer>
    @OptionGroup var printing: OutputOptions

    func run() throws {
        try withContext(environment: server.environment) { await ModelsRunner(context: $0).list(json: printing.json) }
    }
}
