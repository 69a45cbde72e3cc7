import ArgumentParser
import Console

@main
struct OpenResponses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openresponses",
        abstract: "A power-user console for the OpenAI Responses API.",
        discussion: """
            With no subcommand, opens the interactive console (chat).
            Environment: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENRESPONSES_HOME.
            Exit status: 0 completed, 1 API or network error, 2 bad usage or input, 3 incomplete, 130 interrupted.
            """,
        version: "0.1.0",
        subcommands: [Chat.self, Ask.self, FilesCommand.self, StoresCommand.self, Inspect.self, Presets.self, Settings.self],
        defaultSubcommand: Chat.self
    )
}
