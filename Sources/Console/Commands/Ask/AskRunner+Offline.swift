import Foundation
import Library
import ResponsesAPI
import Workbench

extension AskRunner {
    /// With no model to ask (no key for OpenAI's API and no other server), a question is answered from the
    /// user's documents without a model, marked as such, as the console does; with an empty library, the
    /// error says how to get a model and how to answer from documents instead.
    func answerWithoutModel(_ question: String, settings: TurnSettings, problem: ResponsesAPIError) async
        -> ExitStatus
    {
        let runner = LibraryRunner(
            CommandIO(environment: context.environment, output: context.output, diagnostics: context.diagnostics))
        let hasDocuments: Bool
        if FileManager.default.fileExists(atPath: context.environment.libraryPath) {
            hasDocuments = await runner.holdsDocuments()
        } else {
            hasDocuments = false
        }
        guard hasDocuments else {
            context.diagnostics.write("error: \(problem.message)\n")
            context.diagnostics.write(
                "hint: for a model, export OPENAI_API_KEY=sk-... (platform.openai.com/api-keys), or point "
                    + "OPENAI_BASE_URL at a local server (Ollama: http://127.0.0.1:11434/v1); with none, "
                    + "openresponses library add PATH and then library ask \"...\" answer from your documents\n")
            return .usage
        }
        let options: LibraryOptions
        do {
            options = try LibraryOptions(settings.library, source: "config.yaml's library: settings")
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        context.diagnostics.write(
            "note: \(problem.message.prefix { $0 != "." }): answering from your library without a model "
                + "(as openresponses library ask does)\n")
        return await runner.ask(question, offline: true, context: nil, options: options)
    }
}

extension LibraryRunner {
    /// Whether the library holds at least one readable document (false when it cannot be opened).
    func holdsDocuments() async -> Bool {
        guard let store = try? openStore() else { return false }
        return (try? await store.documents().contains { $0.error == nil }) ?? false
    }
}
