import Foundation
import Library
import Workbench

/// Fragments (`ask -f`, `/fragment`): read with the library's extractors (its `library:` options: OCR and the
/// caps) and URLs fetched through this context's transport, then kept by hash in the data directory.
extension ConsoleContext {
    /// Reads `arguments` (paths, URLs, `-` for `standardInput`) relative to the current directory.
    func readFragments(_ arguments: [String], standardInput: Data? = nil) async throws(FragmentError)
        -> FragmentBatch
    {
        var extractors = Extractors(environment: environment.variables)
        if let options = try? LibraryOptions.configured(environment: environment) {
            extractors.ocr = options.ocr
            extractors.caps = options.caps
        }
        let reader = FragmentReader(
            extractors: extractors, fetcher: FragmentFetcher(transport: transport),
            directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        return try await reader.read(arguments, standardInput: standardInput)
    }

    /// Keeps the batch's fragments in the data directory's `fragments/`; a fragment that cannot be kept is
    /// a warning (it is still sent).
    func keep(_ batch: FragmentBatch) {
        let store = FragmentStore(directory: URL(fileURLWithPath: environment.fragmentsPath, isDirectory: true))
        for fragment in batch.fragments {
            do {
                try store.keep(fragment, now: environment.now())
            } catch {
                diagnostics.write("warning: \(error.description)\n")
            }
        }
    }
}
