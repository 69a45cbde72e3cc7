import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as this value lives: a socket bound to it
/// that never listens. The port is the kernel's choice and stays reserved, so no other test's server can
/// take it meanwhile (a stopped server's port can be handed to the next server that starts).
public final class RefusingPort: Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SubprocessError("socket failed (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw SubprocessError("bind failed (errno \(errno))")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `http://127.0.0.1:PORT/v1`
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    deinit { close(descriptor) }
}
