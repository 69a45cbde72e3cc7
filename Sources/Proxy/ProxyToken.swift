import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The token clients must send, read from a file (`--token-file`): unlike `--token`, it is not in the process
/// list for every user to read. The file must be the user's alone (no permission for group or others: mode
/// 0600 or stricter); its content, without surrounding white space (the line's end), is the token.
public enum ProxyToken {
    /// The most a token file may hold.
    static let limit = 4096

    public static func read(fromFile path: String) throws(ProxyError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ProxyError("--token-file \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // The mode of the file opened, not of whatever the path names a moment later.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ProxyError("--token-file \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ProxyError("--token-file \(path): not a regular file") }
        let mode = Int(status.st_mode) & 0o7777
        guard mode & 0o077 == 0 else {
            let octal = String(mode, radix: 8)
            throw ProxyError(
                "--token-file \(path): its mode is \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal), so other users can read it: chmod 600 \(path)"
            )
        }
        let data: Data?
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).read(upToCount: limit + 1)
        } catch {
            throw ProxyError("--token-file \(path): \(error.localizedDescription)")
        }
        let bytes = data.map { Array($0) } ?? []
        let count = bytes.count
        guard count <= limit else { throw ProxyError("--token-file \(path): longer than \(limit) bytes, not a token") }
        let token = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ProxyError("--token-file \(path): the file is empty") }
        return token
    }
}
