import Foundation
import ResponsesAPI

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
    func downloadContainerFile(containerID: String, fileID: String, output: String?, json: Bool) async -> ExitStatus {
        await guarded {
            var name = output
            if name == nil {
                let path = try await client.containerFile(containerID: containerID, fileID: fileID)["path"]?.stringValue ?? ""
                let last = URL(fileURLWithPath: path).lastPathComponent
                name = last.isEmpty || last == "/" ? fileID : last
            }
            let destination = URL(fileURLWithPath: name ?? fileID)
            let progress = ProgressLine(output: context.diagnostics, enabled: progressEnabled, label: destination.lastPathComponent, total: 0)
            let bytes = try await client.downloadContainerFile(
                containerID: containerID, fileID: fileID, to: destination, progress: { progress.update($0) })
            progress.finish()
            if json {
                emit(["container_id": .string(containerID), "id": .string(fileID), "path": .string(destination.path), "bytes": .integer(bytes)])
            } else {
                print("Saved \(fileID) to \(destination.path) (\(ProgressLine.size(bytes))).\n")
            }
            return .success
        }
    }
}
