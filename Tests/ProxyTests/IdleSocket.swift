import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to 127.0.0.1 that sends at most one thing and then only listens, to see whether the
/// server closes it: what an idle client (or one that opened a socket and forgot it) looks like.
enum IdleSocket {
    struct Result: Sendable {
        /// The server closed the connection (end of file, or a reset).
        var closed: Bool
        /// How long after connecting it was closed, or how long it was watched.
        var after: Duration
        /// What the server sent meanwhile.
        var received: String
    }

    /// Connects to `port`, writes `sending` if any, and reads until the server closes or `within` passes.
    /// Runs on a thread of its own (`Blocking`): the waits are blocking `poll` calls.
    static func closedByPeer(port: Int, sending: String?, within limit: Duration) async throws -> Result {
        try await Blocking.run {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw SubprocessError("socket failed (errno \(errno))") }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw SubprocessError("connect to 127.0.0.1:\(port) failed (errno \(errno))") }
            let start = ContinuousClock.now
            if let sending {
                let bytes = Array(sending.utf8)
                guard send(fd, bytes, bytes.count, 0) == bytes.count else {
                    throw SubprocessError("send failed (errno \(errno))")
                }
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while ContinuousClock.now - start < limit {
                var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&watched, 1, 100)
                if ready < 0, errno == EINTR { continue }
                guard ready > 0 else { continue }
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0 {
                    received += buffer[..<count]
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return Result(
                        closed: true, after: ContinuousClock.now - start,
                        received: String(decoding: received, as: UTF8.self))
                }
            }
            return Result(
                closed: false, after: ContinuousClock.now - start, received: String(decoding: received, as: UTF8.self))
        }
    }
}
