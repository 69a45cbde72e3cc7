import Foundation
import Untrusted

/// A file whose name a server chose (a generated image's id and format, a file's `filename`): the name is
/// made a `SafeFileName` (never a path), and the file is created new in the folder the console chose, never
/// over an existing one (`name-2.ext`, `name-3.ext`, … instead). The caller says where it went.
enum ServerNamedFile {
    /// Writes `data` as a new file in `directory` named from `name`; returns where it went.
    static func create(_ data: Data, in directory: URL, name: SafeFileName) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (stem, suffix) = split(name.name)
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? name.name : "\(stem)-\(attempt)\(suffix)"
            let url = directory.appendingPathComponent(candidate, isDirectory: false)
            // O_EXCL: an existing file, or a link planted where the name points, is never written through.
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: url.path,
                        NSLocalizedDescriptionKey: "cannot create \(url.path): \(String(cString: strerror(errno)))",
                    ])
            }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            do {
                try handle.write(contentsOf: data)
                try handle.close()
            } catch {
                unlink(url.path)
                throw error
            }
            return url
        }
        throw CocoaError(
            .fileWriteFileExists,
            userInfo: [
                NSLocalizedDescriptionKey: "1,000 files named like \(name.name) already exist in \(directory.path)"
            ])
    }

    /// `a.png` → (`a`, `.png`); `a` → (`a`, ``).
    static func split(_ name: String) -> (String, String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// The image formats the Images API writes; anything else a server names is saved as `.bin`.
    static let imageFormats: Set<String> = ["png", "jpeg", "jpg", "webp", "gif"]
}
