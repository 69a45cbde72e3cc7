import Foundation

/// A file a command writes what it was asked for into (`history export -o`, `/export`, `/save`): its path
/// checked first, so that a mistake is said in words (a directory, a missing directory, no name) rather
/// than as the system's error code. An existing file is replaced, as the docs say.
struct OutputFile: Sendable {
    let url: URL

    /// `path` as typed (`~` expanded), relative to the current directory.
    init(_ path: String) {
        url =
            URL(
                fileURLWithPath: (path as NSString).expandingTildeInPath,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            ).standardizedFileURL
    }

    /// Why this file cannot be written to, before trying (`path` as typed): nil when it looks writable.
    func problem(path: String) -> String? {
        if path.trimmingCharacters(in: .whitespaces).isEmpty { return "no file name was given" }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory: give a file name in it"
        }
        let directory = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            return "its directory \(directory) does not exist"
        }
        if !isDirectory.boolValue { return "\(directory) is a file, not a directory" }
        return nil
    }

    /// Writes `text` (atomically: a reader never sees half of it); the error names the file and the cause.
    func write(_ text: String) throws(ConsoleError) {
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            let cause = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map {
                String(cString: strerror(Int32($0.code)))
            }
            throw ConsoleError(
                "cannot write \(url.path): \(cause ?? error.localizedDescription)", exitStatus: .apiError)
        }
    }

    /// Checks `path`, then writes `text` to it.
    static func write(_ text: String, to path: String) throws(ConsoleError) -> URL {
        let file = OutputFile(path)
        if let problem = file.problem(path: path) {
            throw ConsoleError("cannot write to \"\(path)\": \(problem)", exitStatus: .usage)
        }
        try file.write(text)
        return file.url
    }
}
