import Foundation

/// A file of the user's data the console writes for itself (an eval run, a batch's record): mode 0600, created
/// new with `O_EXCL`, never through a symbolic link.
enum PrivateFile {
    /// Writes `bytes` to `path`; with `replacing`, what was there is removed first, else an existing file fails.
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool = false) throws {
        if replacing { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
