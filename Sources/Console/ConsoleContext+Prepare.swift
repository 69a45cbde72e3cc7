import Foundation
import Inspector
import StoreSupport
import Synchronization
import Workbench

extension ConsoleContext {
    /// The inspector's store, begun opening by `prepare` and not yet taken by a context.
    private static let prepared = Mutex<(path: String, opening: StoreOpening)?>(nil)

    /// Begins what a command's context will need and nothing on its command line can change, so that it runs
    /// on the second core while the arguments are parsed (the argument parser's reflection takes a few
    /// milliseconds of the first): the inspector's store, opened on a thread of its own when recording is on
    /// and the store already exists (no store is created for a command line that may still turn out
    /// malformed; a damaged one is moved aside and replaced, as any command would). A command that ends
    /// without a context taking the opening calls `settlePrepared` before it exits.
    public static func prepare(environment: AppEnvironment) {
        let path = environment.inspectorPath
        guard environment.recordsExchanges, FileManager.default.fileExists(atPath: path) else { return }
        let opening = StoreOpening(storeAt: path, now: environment.now())
        prepared.withLock { $0 = (path, opening) }
    }

    /// The opening `prepare` began for the store at `path`, once; nil when it began none for that path.
    static func takePreparedStore(path: String) -> StoreOpening? {
        prepared.withLock { prepared in
            guard let early = prepared, early.path == path else { return nil }
            prepared = nil
            return early.opening
        }
    }

    /// Waits for an opening `prepare` began and no context took (the command line was malformed, or the
    /// command failed before it needed the store), so that the process does not end in the middle of a
    /// migration or of moving a damaged store aside, and notes a repair as a context would. A failure to
    /// open is left to the next command that needs the store.
    public static func settlePrepared(diagnostics: any OutputSink = FileDescriptorOutput.standardError) {
        guard let opening = prepared.withLock({ $0.take()?.opening }) else { return }
        if let repaired = StoreOpening.outcome(of: opening.wait()).repaired { diagnostics.write(repairNote(repaired)) }
    }

    /// What a command says on stderr when the inspector's store was damaged and replaced.
    static func repairNote(_ repaired: DamagedStore) -> String {
        "note: the inspector's \(repaired)\n"
    }
}
