import Foundation
import ResponsesAPI
import Untrusted
import Workbench

extension FilesRunner {
    /// One line per file: id, path in the container, size, where it came from (the model or a user).
    public func containerFiles(containerID: String, json: Bool) async -> ExitStatus {
        await guarded {
            let files = try await client.allContainerFiles(containerID: containerID)
            if json {
                emit(.array(files))
            } else if files.isEmpty {
                print("No files in \(containerID).\n")
            } else {
                for file in files {
                    let id = file["id"]?.stringValue ?? "?"
                    let path = file["path"]?.stringValue ?? ""
                    let bytes = file["bytes"]?.intValue.map(ProgressLine.size) ?? "?"
                    let source = file["source"]?.stringValue ?? ""
                    print("\(id)  \(path)  \(bytes)  \(source)\n")
                }
            }
            return .success
        }
    }

    /// Saves a container file under `output`, or under the last component of its path in the container.
    public func downloadContainerFile(containerID: String, fileID: String, output: String?, force: Bool, json: Bool)
        async
        -> ExitStatus
    {
        await guarded {
            // The last component of the container's path, made safe (`..` or a dot file is never a name).
            let (destination, bytes) = try await save(output: output, force: force) {
                let path =
                    try await client.containerFile(containerID: containerID, fileID: fileID)["path"]?.stringValue ?? ""
                return SafeFileName(path.split(separator: "/").last.map(String.init) ?? "", fallback: fileID)
            } download: { destination, progress in
                try await client.downloadContainerFile(
                    containerID: containerID, fileID: fileID, to: destination, progress: progress)
            }
            if json {
                emit([
                    "container_id": .string(containerID), "id": .string(fileID), "path": .string(destination.path),
                    "bytes": .integer(bytes),
                ])
            } else {
                print("Saved \(fileID) to \(destination.path) (\(ProgressLine.size(bytes))).\n")
            }
            return .success
        }
    }
}

extension FilesRunner {
    /// A download saved to `output` (the user's path, replaced if it exists) or, without one, to the safe name
    /// `name()` gives, in the current folder, created new (`claim`) and removed again if the download fails;
    /// with a progress line on stderr. Returns where it went and its size.
    func save(
        output: String?, force: Bool, name: () async throws -> SafeFileName,
        download: (URL, @escaping @Sendable (Int) -> Void) async throws -> Int
    ) async throws -> (URL, Int) {
        var path = output
        if path == nil { path = try await name().name }
        let destination = URL(fileURLWithPath: path ?? "")
        let claimed = output == nil ? try Self.claim(destination, force: force) : false
        let progress = ProgressLine(
            output: context.diagnostics, enabled: progressEnabled, label: destination.lastPathComponent, total: 0)
        do {
            let bytes = try await download(destination) { progress.update($0) }
            progress.finish()
            return (destination, bytes)
        } catch {
            if claimed { unlink(destination.path) }
            throw error
        }
    }

    /// Creates `url` new, before a download with a name the server chose writes into it: an existing file (or
    /// a link planted at that name) is never written through. With `force`, an existing file or link of
    /// that name is removed first. True when it created the file (removed again if the download fails).
    static func claim(_ url: URL, force: Bool) throws(SettingError) -> Bool {
        var status = stat()
        if force, lstat(url.path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR { throw SettingError("\(url.path) is a directory: give -o PATH") }
            unlink(url.path)
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST {
                throw SettingError(
                    "\(url.path) already exists: give --force to replace it, or -o PATH to save elsewhere")
            }
            throw SettingError("cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        close(fd)
        return true
    }
}
