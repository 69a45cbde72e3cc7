import Foundation
import ResponsesAPI
import Workbench

/// `/provider [NAME]`: which server the console talks to, and switching to another of config.yaml's
/// providers. The next turn goes there with its own key; the conversation starts anew (a response id of
/// one server means nothing to another), and the settings stay, the model too unless the provider names one.
extension REPL {
    func providerCommand(_ name: String) {
        guard !name.isEmpty else {
            context.output.write(
                "Provider \(providerName): \(context.configuration.baseURL) (/provider NAME switches; openresponses providers list shows them).\n"
            )
            return
        }
        if switchProvider(to: name) {
            context.output.write(
                "Provider \(name): \(context.configuration.baseURL), model \(settings.model); a new conversation starts.\n"
            )
        }
    }

    /// Makes `name` the provider of the next turn: a context for it, a new conversation, its model as the
    /// default. False (said on diagnostics, nothing changed) when the provider cannot be used.
    func switchProvider(to name: String) -> Bool {
        guard let next = providerContext(name) else { return false }
        let environment = next.environment
        let previous = context
        if previous !== openedContext { _ = bridge.run { await previous.shutdown() } }
        context = next
        providerName = name
        var stack = session.stack
        if let model = (try? ProviderCatalog.load(environment: environment))?.provider(named: name)?.model {
            stack.defaults.template["model"] = .string(model)
        }
        session = ChatSession(client: next.client, environment: environment, stack: stack)
        let chain = ChainKeeping.startingMode(
            provider: name, baseURL: next.configuration.baseURL, environment: environment)
        session.conversation.mode = chain.mode
        if let notice = chain.notice { next.diagnostics.write(notice + "\n") }
        session.toolSource = mcp
        library.hasProvider = (try? next.configuration.validate()) != nil
        return true
    }

    /// A context for provider `name` with this console's output and inspector; nil (said on diagnostics)
    /// when the provider is unknown or its key is missing.
    func providerContext(_ name: String) -> ConsoleContext? {
        do {
            return try context.forProvider(name)
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
            return nil
        }
    }

    /// Provider names for completion: config.yaml's, and default.
    static func providerNames(environment: AppEnvironment) -> [String] {
        ((try? ProviderCatalog.load(environment: environment))?.providers.map(\.name)) ?? [ProviderCatalog.defaultName]
    }
}
