import Foundation
import ResponsesAPI
import Untrusted
import Workbench

extension FilesRunner {
    /// One line per file: id, path in the container, size, where it came from (the model or a user).
    func containerFiles(containerID: String, json: Bool) async -> ExitStatus {
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
    func downloadContainerFile(containerID: String, fileID: String, output: String?, force: Bool, json: Bool) async
        -> ExitStatus
    {
        await guarded {
            let destination: URL
            var claimed = false
            if let output {
                destination = URL(fileURLWithPath: output)
            } else {
                // The last component of the container's path, made safe (`..` or a dot file is never a name).
                let path =
                    try await client.containerFile(containerID: containerID, fileID: fileID)["path"]?.stringValue ?? ""
                let name = SafeFileName(path.split(separator: "/").last.map(String.init) ?? "", fallback: fileID)
                destination = URL(fileURLWithPath: name.name)
                claimed = try Self.claim(destination, force: force)
            }
            let progress = ProgressLine(
                output: context.diagnostics, enabled: progressEnabled, label: destination.lastPathComponent, total: 0)
            let bytes: Int
            do {
                bytes = try await client.downloadContainerFile(
                    containerID: containerID, fileID: fileID, to: destination, progress: { progress.update($0) })
            } catch {
                if claimed { unlink(destination.path) }
                throw error
            }
            progress.finish()
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
