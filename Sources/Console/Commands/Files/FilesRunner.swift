import Foundation
import ResponsesAPI
import Untrusted
import Workbench

/// Files and vector stores, for the `files` and `stores` subcommands and the console's `/files` and
/// `/stores`: every call goes through the context's client, so the inspector records it. Lists follow
/// pagination; every command can print JSON; errors carry OpenAI's message and the request id.
public struct FilesRunner: Sendable {
    let context: ConsoleContext
    let progressEnabled: Bool

    public init(context: ConsoleContext, progressEnabled: Bool) {
        self.context = context
        self.progressEnabled = progressEnabled
    }

    var client: ResponsesClient { context.client }

    func print(_ text: String) { context.output.write(text) }
    func fail(_ text: String) { context.diagnostics.write("error: \(text)\n") }

    func emit(_ value: JSONValue) { print(value.prettyPrinted() + "\n") }

    /// Runs `body`; an API error becomes one line (with the request id) and exit status 1.
    func guarded(_ body: () async throws -> ExitStatus) async -> ExitStatus {
        do {
            return try await body()
        } catch let error as ResponsesAPIError {
            switch error.code {
            case .cancelled:
                context.diagnostics.write("interrupted\n")
                return .interrupted
            case .configuration:
                fail(error.message)
                return .usage
            default:
                fail("\(error)")
                return .apiError
            }
        } catch let error as SettingError {
            fail(error.message)
            return .usage
        } catch {
            fail("\(error)")
            return .apiError
        }
    }

    // MARK: Files

    /// Local paths are all checked before the first byte is sent.
    static func checkedPaths(_ paths: [String]) throws(SettingError) -> [URL] {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var urls: [URL] = []
        for path in paths {
            let url = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
            do {
                _ = try LocalFile.size(of: url)
            } catch {
                throw SettingError("\(error.message); nothing was uploaded")
            }
            urls.append(url)
        }
        return urls
    }

    /// Uploads each path; returns the file objects in order. On failure, says which were uploaded.
    func uploadAll(_ urls: [URL], purpose: String) async throws -> [JSONValue] {
        var uploaded: [JSONValue] = []
        for url in urls {
            let size = (try? LocalFile.size(of: url)) ?? 0
            let progress = ProgressLine(
                output: context.diagnostics, enabled: progressEnabled, label: url.lastPathComponent, total: size)
            do {
                let file = try await client.uploadFile(url, purpose: purpose, progress: { progress.update($0) })
                progress.finish()
                uploaded.append(file)
            } catch {
                progress.finish()
                if !uploaded.isEmpty {
                    context.diagnostics.write(
                        "already uploaded: " + uploaded.compactMap { $0["id"]?.stringValue }.joined(separator: ", ")
                            + "\n")
                }
                throw error
            }
        }
        return uploaded
    }

    public func upload(paths: [String], purpose: String, json: Bool) async -> ExitStatus {
        await guarded {
            let urls = try Self.checkedPaths(paths)
            let files = try await uploadAll(urls, purpose: purpose)
            if json { emit(.array(files)) } else { print(files.map(Self.fileLine).joined()) }
            return .success
        }
    }

    public func list(purpose: String?, limit: Int?, all: Bool, json: Bool) async -> ExitStatus {
        await guarded {
            let files =
                all
                ? try await client.allFiles(purpose: purpose)
                : try await client.listFiles(purpose: purpose, page: PageRequest(limit: limit ?? 20)).data
            if json {
                emit(.array(files))
            } else {
                print(files.isEmpty ? "No files.\n" : files.map(Self.fileLine).joined())
            }
            return .success
        }
    }

    public func show(id: String, json: Bool) async -> ExitStatus {
        await guarded {
            let file = try await client.file(id: id)
            if json { emit(file) } else { print(Self.fileLine(file)) }
            return .success
        }
    }

    public func download(id: String, output: String?, force: Bool, json: Bool) async -> ExitStatus {
        await guarded {
            // The server's file name is a name, never a path (`../../x.sh`, `/etc/x` wrote anywhere).
            let (destination, bytes) = try await save(output: output, force: force) {
                SafeFileName(try await client.file(id: id)["filename"]?.stringValue ?? "", fallback: id)
            } download: { destination, progress in
                try await client.downloadFile(id: id, to: destination, progress: progress)
            }
            if json {
                emit(["id": .string(id), "path": .string(destination.path), "bytes": .integer(bytes)])
            } else {
                print("Saved \(id) to \(destination.path) (\(ProgressLine.size(bytes))).\n")
            }
            return .success
        }
    }

    public func delete(ids: [String], json: Bool) async -> ExitStatus {
        await guarded {
            var results: [JSONValue] = []
            for id in ids {
                let deletion = try await client.deleteFile(id: id)
                results.append(["id": .string(id), "deleted": .bool(deletion.deleted)])
                if !json { print("Deleted \(id).\n") }
            }
            if json { emit(.array(results)) }
            return .success
        }
    }

    static func fileLine(_ file: JSONValue) -> String {
        let id = file["id"]?.stringValue ?? "?"
        let name = file["filename"]?.stringValue ?? ""
        let bytes = file["bytes"]?.intValue.map(ProgressLine.size) ?? "?"
        let purpose = file["purpose"]?.stringValue ?? ""
        return "\(id)  \(name)  \(bytes)  \(purpose)\n"
    }
}
