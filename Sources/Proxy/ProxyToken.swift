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
        let bytes = try privateFile(path, flag: "--token-file", limit: limit, what: "a token")
        let token = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ProxyError("--token-file \(path): the file is empty") }
        return token
    }

    /// The bytes of a file of secrets (`--token-file`, `--tokens-file`): opened once, and judged by what was
    /// opened (`fstat` on the descriptor, not the path a moment later): a regular file, of mode 0600 or
    /// stricter, of at most `limit` bytes. Each error begins with `flag` and the path, and never quotes the
    /// content.
    static func privateFile(_ path: String, flag: String, limit: Int, what: String) throws(ProxyError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ProxyError("\(flag) \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // The mode of the file opened, not of whatever the path names a moment later.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ProxyError("\(flag) \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ProxyError("\(flag) \(path): not a regular file") }
        let mode = Int(status.st_mode) & 0o7777
        guard mode & 0o077 == 0 else {
            let octal = String(mode, radix: 8)
            throw ProxyError(
                "\(flag) \(path): its mode is \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal), so other users can read it: chmod 600 \(path)"
            )
        }
        let data: Data?
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).read(upToCount: limit + 1)
        } catch {
            throw ProxyError("\(flag) \(path): \(error.localizedDescription)")
        }
        let bytes = data.map { Array($0) } ?? []
        guard bytes.count <= limit else {
            throw ProxyError("\(flag) \(path): longer than \(limit) bytes, not \(what)")
        }
        return bytes
    }

    /// Whether `presented` is `expected`, in a time that depends on `presented`'s length only (never on
    /// where the two first differ), so that the answer's timing tells a client nothing of a token.
    static func matches(_ presented: String, _ expected: String) -> Bool {
        let given = Array(presented.utf8)
        let wanted = Array(expected.utf8)
        var difference = UInt8(given.count == wanted.count ? 0 : 1)
        guard !wanted.isEmpty else { return false }
        for index in given.indices {
            difference |= given[index] ^ wanted[index % wanted.count]
        }
        return difference == 0
    }
}
