import Embeddings
import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// The library's vectors: which embedder, computing the missing ones after `add`, `reembed`, and the
/// retriever every search goes through.
extension LibraryRunner {
    /// Where all-MiniLM-L6-v2's files are: `library.model_dir`, else the data directory's models/.
    func modelFolder(_ options: LibraryOptions) -> String {
        options.modelDirectory
            ?? environment.dataDirectory.appendingPathComponent("models/" + MiniLMEmbedder.folderName).path
    }

    /// The embedder `spec` names, ready to run; nil for `none`. A provider embedder uses `client` (the
    /// console's, recorded in the inspector).
    func makeEmbedder(_ spec: EmbedderSpec, options: LibraryOptions, client: ResponsesClient?) throws(ConsoleError) -> (
        any Embedder
    )? {
        switch spec {
        case .none: return nil
        case .minilm:
            let folder = modelFolder(options)
            guard FileManager.default.fileExists(atPath: folder + "/model.safetensors") else {
                throw ConsoleError(
                    "all-MiniLM-L6-v2 is not installed in \(folder) (scripts/install-model.sh installs it)")
            }
            do { return try MiniLMEmbedder.shared(folder: folder) } catch { throw ConsoleError(error.message) }
        case .provider(let model, let dimensions, let server):
            guard let client else {
                throw ConsoleError("openai:\(model) needs the server's configuration (OPENAI_BASE_URL, OPENAI_API_KEY)")
            }
            return ProviderEmbedder(
                client: client, model: model, dimensions: dimensions, server: server,
                context: ExchangeContext(labels: ["source": "library"]))
        }
    }

    /// The embedder to add with: the one asked for (flag or config), else the library's, else minilm. Asking
    /// for another than the library's vectors come from is an error that says how to switch.
    func embedderSpec(for store: LibraryStore, options: LibraryOptions) async throws -> EmbedderSpec {
        let current = try await store.embedder().flatMap { try? EmbedderSpec(parsing: $0) }
        guard let asked = options.embedder else { return current ?? .minilm }
        if let current, current != asked, asked != .none {
            throw ConsoleError(
                "the library's vectors come from \(current), not \(asked): openresponses library reembed --embedder \(asked) switches the whole library",
                exitStatus: .usage)
        }
        return asked
    }

    /// Computes the vectors the library lacks with `spec`, with a progress line on a terminal and a summary;
    /// an embedder that cannot run is a warning (the documents stay added, search uses keywords).
    func embedMissing(_ store: LibraryStore, spec: EmbedderSpec, options: LibraryOptions) async -> ExitStatus {
        guard spec != .none else { return .success }
        var context: ConsoleContext?
        if case .provider = spec { context = try? serverContext(spec) }
        let status = await embedMissing(store, spec: spec, options: options, client: context?.client)
        await context?.shutdown()
        return status
    }

    private func embedMissing(
        _ store: LibraryStore, spec: EmbedderSpec, options: LibraryOptions, client: ResponsesClient?
    ) async -> ExitStatus {
        let embedder: any Embedder
        do {
            guard let made = try makeEmbedder(spec, options: options, client: client) else { return .success }
            embedder = made
        } catch {
            diagnostics.write("warning: passages not embedded: \(error.message); search uses keywords\n")
            return .success
        }
        let terminal = (diagnostics as? FileDescriptorOutput)?.isTerminal ?? false
        let started = environment.now()
        let sink = diagnostics
        do {
            let count = try await store.embedMissing(with: embedder) { done, total in
                if terminal {
                    sink.write("\r\u{1B}[Kembedding passages with \(spec): \(done)/\(total)" as TerminalText)
                }
            }
            if terminal { diagnostics.write("\r\u{1B}[K" as TerminalText) }
            if count > 0 {
                let seconds = environment.now().timeIntervalSince(started)
                output.write(
                    String(
                        format: "Embedded %d passage%@ with %@ in %.1f s.\n", count, count == 1 ? "" : "s", "\(spec)",
                        seconds))
            }
            return Task.isCancelled ? .interrupted : .success
        } catch {
            if terminal { diagnostics.write("\r\u{1B}[K" as TerminalText) }
            diagnostics.write(
                "error: embedding with \(spec) stopped: \(Self.message(error)); what was embedded is kept, library reembed goes on\n"
            )
            return .apiError
        }
    }

    /// The ranking searches use, with the library's own embedder; when that cannot run (the model is not
    /// installed, no server), a retriever that says so and searches by keywords.
    func retriever(_ store: LibraryStore, options: LibraryOptions, client: ResponsesClient?) async throws -> Retriever {
        guard let identifier = try await store.embedder(), let spec = try? EmbedderSpec(parsing: identifier) else {
            // No vectors yet: say why, when there are passages a vector search would have ranked.
            guard (options.embedder ?? .minilm) != .none, try await store.statistics().chunks > 0 else {
                return Retriever(store: store, embedder: nil)
            }
            if options.embedder ?? .minilm == .minilm,
                !FileManager.default.fileExists(atPath: modelFolder(options) + "/model.safetensors")
            {
                return Retriever(
                    store: store, embedder: nil,
                    unavailable:
                        "semantic search needs all-MiniLM-L6-v2, not installed in \(modelFolder(options)) (scripts/install-model.sh installs it)"
                )
            }
            return Retriever(
                store: store, embedder: nil,
                unavailable: "the library has no vectors yet (openresponses library reembed computes them)")
        }
        guard spec != .none else { return Retriever(store: store, embedder: nil) }
        do {
            return Retriever(store: store, embedder: try makeEmbedder(spec, options: options, client: client))
        } catch {
            return Retriever(
                store: store, embedder: nil, unavailable: "semantic search is unavailable: \(error.message)")
        }
    }

    /// A context for the server a provider embedder talks to: its named provider (`@NAME`), else this command's.
    func serverContext(_ spec: EmbedderSpec) throws(ConsoleError) -> ConsoleContext {
        try ConsoleContext(
            environment: environment.choosing(provider: spec.server), output: output, diagnostics: diagnostics)
    }

    static func message(_ error: any Error) -> String {
        (error as? ConsoleError)?.message ?? (error as? LibraryError)?.description ?? "\(error)"
    }
}

extension LibraryRunner {
    /// One search with the library's ranking. A server's embedder gets `client`, or a context made for
    /// this search (its exchanges recorded like every other).
    func ranked(
        _ query: String, k: Int, filter: LibraryStore.SearchFilter, options: LibraryOptions, store: LibraryStore,
        client: ResponsesClient? = nil
    ) async throws -> Retriever.Result {
        // Keyword search needs no embedder: the model is not even loaded (14 ms of a command).
        if options.searchMode == .keyword {
            do {
                return try await Retriever(store: store, embedder: nil).search(
                    query, k: k, filter: filter, mode: .keyword)
            } catch {
                throw ConsoleError(Self.message(error))
            }
        }
        var context: ConsoleContext?
        // A server's embedder needs a client: the caller's, unless the embedder names its own provider.
        let current = try await store.embedder().flatMap { try? EmbedderSpec(parsing: $0) }
        if let current, case .provider = current, client == nil || current.server != nil {
            context = try? serverContext(current)
        }
        do {
            let retriever = try await retriever(store, options: options, client: context?.client ?? client)
            let result = try await retriever.search(query, k: k, filter: filter, mode: options.searchMode)
            await context?.shutdown()
            return result
        } catch {
            await context?.shutdown()
            throw ConsoleError(Self.message(error))
        }
    }

    /// `library reembed`: vectors for every passage from the embedder asked for, which becomes the
    /// library's; the other embedders' vectors are dropped (`none` drops them all).
    func reembed(options: LibraryOptions) async -> ExitStatus {
        await withStore { store in
            let current = try await store.embedder().flatMap { try? EmbedderSpec(parsing: $0) }
            // Alone, after vectors were dropped, it computes them again with the built-in model.
            let spec = options.embedder ?? (current == EmbedderSpec.none ? nil : current) ?? .minilm
            if spec == .none {
                let dropped = try await store.pruneVectors(keeping: nil)
                try await store.setEmbedder(EmbedderSpec.none.description)
                await store.settle()
                output.write("Dropped \(dropped) vector\(dropped == 1 ? "" : "s"); search uses keywords.\n")
                return .success
            }
            if case .minilm = spec, !FileManager.default.fileExists(atPath: modelFolder(options) + "/model.safetensors")
            {
                throw ConsoleError(
                    "all-MiniLM-L6-v2 is not installed in \(modelFolder(options)) (scripts/install-model.sh installs it)"
                )
            }
            let status = await embedMissing(store, spec: spec, options: options)
            guard status == .success else { return status }
            let dropped = try await store.pruneVectors(keeping: spec.description)
            await store.settle()
            let coverage = try await store.vectorCoverage(embedder: spec.description)
            output.write(
                "The library's vectors come from \(spec): \(coverage.embedded) passage\(coverage.embedded == 1 ? "" : "s")"
                    + (dropped > 0 ? ", \(dropped) other vector\(dropped == 1 ? "" : "s") dropped" : "") + ".\n")
            return .success
        }
    }
}
