import Foundation
import Inspector
import Library
import MCPServe
import ResponsesAPI
import Workbench

/// `openresponses mcp serve`: the library and the inspector served over stdio until the client goes away. The
/// library opens with the config file's options; the inspector is served when it has a store. stdout is the
/// protocol's: every note goes to stderr.
extension MCPRunner {
    public func serve(allowWrite: Bool, version: String) async -> ExitStatus {
        let options: LibraryOptions
        do { options = try LibraryOptions.configured(environment: environment, flags: [:]) } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        let library = LibraryRunner(io)
        let service: LibraryService
        do { service = try library.service(options) } catch { return ErrorReport.write(error, to: diagnostics) }
        var inspector: (@Sendable () throws -> InspectorStore)?
        if FileManager.default.fileExists(atPath: environment.inspectorPath) {
            do {
                let store = try ConsoleContext.openStore(environment: environment, diagnostics: diagnostics)
                inspector = { store }
            } catch {
                diagnostics.write("note: the inspector is not served: \(error.message)\n")
            }
        }
        var add: (@Sendable ([String]) async throws -> String)?
        if allowWrite { add = { @Sendable paths in try await Self.add(paths, to: service) } }
        let server = LibraryMCPServer(
            access: .init(library: { service }, inspector: inspector, add: add), version: version)
        do {
            try await server.runOverStandardIO()
        } catch {
            await service.finish()
            return ErrorReport.write(error, to: diagnostics)
        }
        await service.finish()
        return .success
    }

    /// `library_add`: the files `paths` mean (relative to the directory serve runs in), added and embedded; a
    /// line per file and the summary, as `library add` says them.
    static func add(_ paths: [String], to service: LibraryService) async throws -> String {
        let plan = try await service.planAdding(
            paths, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let files = plan.selection.files
        let result = try await service.add(plan)
        var lines = zip(files, result.outcomes).map { LibraryRunner.describe($1, path: $0.path) }
        lines.append(LibraryRunner.summary(result.outcomes, of: files.count, interrupted: result.interrupted))
        return lines.joined(separator: "\n")
    }
}
