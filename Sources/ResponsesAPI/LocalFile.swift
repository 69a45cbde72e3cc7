import Foundation

/// The one check of a local file before it is read or sent: it exists, is not a directory, can be read.
public enum LocalFile {
    /// The file's size; throws (`.configuration`) naming the path and what is wrong with it.
    public static func size(of url: URL) throws(ResponsesAPIError) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ResponsesAPIError(code: .configuration, message: "\(url.path): no such file")
        }
        guard !isDirectory.boolValue else {
            throw ResponsesAPIError(code: .configuration, message: "\(url.path) is a directory")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw ResponsesAPIError(code: .configuration, message: "\(url.path): cannot read it (permissions)")
        }
        return ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
