import Foundation
import Inspector
import Logging
import ResponsesAPI
import Workbench

/// Everything a command needs, built once: the environment, the client over the real transport, the
/// inspector recording every exchange, and where output goes. Every effect goes through this value.
public final class ConsoleContext: Sendable {
    public let environment: AppEnvironment
    public let configuration: Configuration
    public let client: ResponsesClient
    public let recorder: ExchangeRecorder?
    public let output: any OutputSink
    public let diagnostics: any OutputSink
    private let transport: any HTTPTransport

    /// Throws a `ConsoleError` (usage) when the environment's configuration is malformed.
    public init(
        environment: AppEnvironment, output: any OutputSink = FileDescriptorOutput.standardOutput,
        diagnostics: any OutputSink = FileDescriptorOutput.standardError, record: Bool = true
    ) throws(ConsoleError) {
        self.environment = environment
        self.output = output
        self.diagnostics = diagnostics
        let configuration: Configuration
        do {
            configuration = try Configuration(environment: environment.variables)
        } catch {
            throw ConsoleError(error.message, exitStatus: .usage)
        }
        self.configuration = configuration
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        self.transport = transport
        var recorder: ExchangeRecorder? = nil
        if record && environment["OPENRESPONSES_INSPECTOR"]?.lowercased() != "off" {
            // Opened in the background: the first request goes out meanwhile.
            let path = environment.inspectorPath
            do {
                _ = try environment.ensureDataDirectory()
                recorder = ExchangeRecorder(openingStoreAt: path) { error in
                    diagnostics.write("warning: the inspector is off: cannot open \(path): \(error)\n")
                }
            } catch {
                diagnostics.write("warning: the inspector is off: cannot open \(path): \(error)\n")
            }
        }
        self.recorder = recorder
        self.client = ResponsesClient(
            configuration: configuration, transport: transport, observer: recorder, now: environment.now)
    }

    /// A client like `client` (same transport, same inspector) that talks to `baseURL` instead.
    public func client(baseURL: String) -> ResponsesClient {
        var configuration = configuration
        configuration.baseURL = baseURL
        return ResponsesClient(configuration: configuration, transport: transport, observer: recorder, now: environment.now)
    }

    /// Opens the inspector store for reading commands (`inspect ...`), without a client.
    public static func openStore(environment: AppEnvironment) throws -> InspectorStore {
        let path = environment.inspectorPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConsoleError("no inspector store yet at \(path): nothing has been recorded", exitStatus: .apiError)
        }
        return try InspectorStore.open(at: path)
    }

    /// Waits for the inspector to write what it holds, then releases the network client.
    public func shutdown() async {
        await recorder?.finish()
        await transport.shutdown()
    }
}
