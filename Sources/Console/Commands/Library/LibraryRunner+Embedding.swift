import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// The library's vectors as the commands show them: the progress line, the summary, `library reembed`.
/// Which embedder runs and what is computed is `LibraryService`'s.
extension LibraryRunner {
    /// Says how an embedding run went: the count and time, a warning when the embedder cannot run here (the
    /// documents stay added, search uses keywords), or the error that stopped it.
    func report(_ run: Result<EmbeddingRun, LibraryServiceError>, spec: EmbedderSpec) -> ExitStatus {
        switch run {
        case .success(.notNeeded): return .success
        case .success(.unavailable(let reason)):
            diagnostics.write("warning: passages not embedded: \(reason); search uses keywords\n")
            return .success
        case .success(.embedded(let count, let seconds)):
            if count > 0 {
                output.write(
                    String(
                        format: "Embedded %d passage%@ with %@ in %.1f s.\n", count, count == 1 ? "" : "s", "\(spec)",
                        seconds))
            }
            return Task.isCancelled ? .interrupted : .success
        case .failure(let error):
            return ErrorReport.write(error, to: diagnostics)
        }
    }

    /// `library reembed`: vectors for every passage from the embedder asked for, which becomes the
    /// library's; the other embedders' vectors are dropped (`none` drops them all).
    public func reembed(options: LibraryOptions) async -> ExitStatus {
        await withService(options) { service in
            let spec = try await service.embedderForReembedding()
            let terminal = (diagnostics as? FileDescriptorOutput)?.isTerminal ?? false
            let progress = EmbeddingProgress(diagnostics: diagnostics, terminal: terminal, spec: spec)
            let done: LibraryService.Reembedding
            do {
                done = try await service.reembed(spec) { progress.update($0, $1) }
                progress.finish()
            } catch {
                progress.finish()
                throw error
            }
            switch done {
            case .dropped(let dropped):
                output.write("Dropped \(dropped) vector\(dropped == 1 ? "" : "s"); search uses keywords.\n")
                return .success
            case .interrupted:
                return .interrupted
            case .switched(let spec, let run, let embedded, let dropped):
                guard report(.success(run), spec: spec) == .success else { return .interrupted }
                output.write(
                    "The library's vectors come from \(spec): \(embedded) passage\(embedded == 1 ? "" : "s")"
                        + (dropped > 0 ? ", \(dropped) other vector\(dropped == 1 ? "" : "s") dropped" : "") + ".\n")
                return .success
            }
        }
    }
}

/// The embedding progress line on a terminal (`embedding passages with SPEC: done/total`), erased when done.
struct EmbeddingProgress: Sendable {
    let diagnostics: any OutputSink
    let terminal: Bool
    let spec: EmbedderSpec?

    func update(_ done: Int, _ total: Int) {
        guard terminal, let spec else { return }
        diagnostics.write("\r\u{1B}[Kembedding passages with \(spec): \(done)/\(total)" as TerminalText)
    }

    func finish() {
        if terminal, spec != nil { diagnostics.write("\r\u{1B}[K" as TerminalText) }
    }
}

/// The clients a server's embedder talks through, for one library service: the command's own when it has
/// one and the embedder names no provider (the console's client, recorded in its inspector), else a context
/// made for the provider the embedder names (`@NAME`) or the command's; `finish` shuts those down.
actor ConsoleEmbeddingClients: EmbeddingClients {
    let environment: AppEnvironment
    let own: ResponsesClient?
    let io: CommandIO
    var made: [ConsoleContext] = []

    init(environment: AppEnvironment, own: ResponsesClient?, io: CommandIO) {
        self.environment = environment
        self.own = own
        self.io = io
    }

    func client(for server: String?) async throws -> ResponsesClient {
        if server == nil, let own { return own }
        let context = try ConsoleContext(
            environment: environment.choosing(provider: server), output: io.output, diagnostics: io.diagnostics)
        made.append(context)
        return context.client
    }

    func finish() async {
        for context in made { await context.shutdown() }
        made = []
    }
}
