import Foundation
import Inspector
import Logging
import ResponsesAPI
import StoreSupport
import Workbench

/// Everything a command needs, built once: the environment, the client over the real transport, the
/// inspector recording every exchange, and where output goes. Every effect goes through this value.
public final class ConsoleContext: Sendable {
    let environment: AppEnvironment
    let configuration: Configuration
    let client: ResponsesClient
    let recorder: ExchangeRecorder?
    let output: any OutputSink
    let diagnostics: any OutputSink
    let transport: any HTTPTransport

    /// Throws a `ConsoleError` (usage) when the environment's configuration is malformed.
    public init(
        environment: AppEnvironment, output: any OutputSink = FileDescriptorOutput.standardOutput,
        diagnostics: any OutputSink = FileDescriptorOutput.standardError, record: Bool = true
    ) throws(ConsoleError) {
        self.environment = environment
        self.output = output
        self.diagnostics = diagnostics
        let configuration: Configuration
        if let name = environment.provider, name != ProviderCatalog.defaultName {
            // A named provider (the environment's choice): config.yaml's providers:.
            do {
                configuration = try ProviderCatalog.load(environment: environment).configuration(
                    for: name, environment: environment)
            } catch {
                throw ConsoleError(error.message, exitStatus: .usage)
            }
        } else {
            do {
                configuration = try Configuration(environment: environment.variables)
            } catch {
                throw ConsoleError(error.message, exitStatus: .usage)
            }
        }
        self.configuration = configuration
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        self.transport = transport
        var recorder: ExchangeRecorder? = nil
        if record && environment.recordsExchanges {
            // Opened in the background (or already opening, begun by `prepare`): the first request goes out meanwhile.
            let path = environment.inspectorPath
            do {
                _ = try environment.ensureDataDirectory()
                recorder = ExchangeRecorder(
                    opening: Self.takePreparedStore(path: path) ?? StoreOpening(storeAt: path, now: environment.now()),
                    provider: environment.providerName,
                    onRepair: { diagnostics.write(Self.repairNote($0)) },
                    onWriteFailure: { diagnostics.write("warning: not recorded: \($0)\n") },
                    onFailure: { diagnostics.write("warning: \(Self.inspectorOff(path: path, error: $0))\n") })
            } catch {
                diagnostics.write("warning: \(Self.inspectorOff(path: path, error: error))\n")
            }
        }
        self.recorder = recorder
        self.client = ResponsesClient(
            configuration: configuration, transport: transport, observer: recorder, now: environment.now)
    }

    /// The provider this context talks to: its environment's choice, else `default`.
    var providerName: String { environment.providerName }

    /// Runs `body` with a context for provider `name`: this one when it is this context's provider, else one
    /// made for it (`forProvider`) and shut down afterwards. Throws when that provider cannot be used.
    func withProvider<T>(_ name: String, _ body: (ConsoleContext) async -> T) async throws(ConsoleError) -> T {
        guard name != providerName else { return await body(self) }
        let other = try forProvider(name)
        let result = await body(other)
        await other.shutdown()
        return result
    }

    /// A context like this one (same environment otherwise, same output) for provider `name`, with its own
    /// client and key. Throws when the provider is unknown or its key is missing.
    func forProvider(_ name: String) throws(ConsoleError) -> ConsoleContext {
        try ConsoleContext(environment: environment.choosing(provider: name), output: output, diagnostics: diagnostics)
    }

    /// A client like `client` (same transport, same inspector) that talks to `baseURL` instead.
    func client(baseURL: String) -> ResponsesClient {
        var configuration = configuration
        configuration.baseURL = baseURL
        return ResponsesClient(
            configuration: configuration, transport: transport, observer: recorder, now: environment.now)
    }

    /// The warning when the inspector cannot record: what failed, and that this command's exchanges are
    /// not recorded.
    static func inspectorOff(path: String, error: any Error) -> String {
        let reason = (error as? StoreOpenError)?.description ?? "cannot open \(path): \(error)"
        return "the inspector is off: \(reason); what this command sends is not recorded"
    }

    /// Opens the inspector store for reading commands (`inspect ...`), without a client. A damaged store is
    /// moved aside (said on `diagnostics`) and an empty one takes its place.
    static func openStore(environment: AppEnvironment, diagnostics: any OutputSink) throws(ConsoleError)
        -> InspectorStore
    {
        let path = environment.inspectorPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConsoleError("no inspector store yet at \(path): nothing has been recorded", exitStatus: .apiError)
        }
        do {
            let store = try InspectorStore.open(at: path, now: environment.now())
            if let repaired = store.repaired { diagnostics.write(Self.repairNote(repaired)) }
            return store
        } catch let error as StoreOpenError {
            throw ConsoleError(error.description, exitStatus: .apiError)
        } catch {
            throw ConsoleError("cannot open the inspector store \(path): \(error)", exitStatus: .apiError)
        }
    }

    /// Waits for the inspector to write what it holds, then releases the network client.
    public func shutdown() async {
        await recorder?.finish()
        await pushToTeam()
        await transport.shutdown()
    }
}
