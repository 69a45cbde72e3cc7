import Foundation
import Inspector
import Synchronization
import Workbench

extension ConsoleContext {
    /// The inspector's store, begun opening by `prepare` and not yet taken by a context.
    private static let prepared = Mutex<(path: String, opening: StoreOpening)?>(nil)

    /// Begins what a command's context will need and nothing on its command line can change, so that it runs
    /// on the second core while the arguments are parsed (ArgumentParser's reflection takes a few
    /// milliseconds of the first): the inspector's store, opened on a thread of its own when recording is on
    /// and the store already exists. Nothing is created for a command line that may still turn out malformed;
    /// a store that is opened and then not used is left open until the process ends.
    public static func prepare(environment: AppEnvironment) {
        let path = environment.inspectorPath
        guard recording(in: environment), FileManager.default.fileExists(atPath: path) else { return }
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

    /// Whether this environment records exchanges: the inspector is on unless `OPENRESPONSES_INSPECTOR=off`.
    static func recording(in environment: AppEnvironment) -> Bool {
        environment["OPENRESPONSES_INSPECTOR"]?.lowercased() != "off"
    }
}
