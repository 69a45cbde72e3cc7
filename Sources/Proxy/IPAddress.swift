#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, from a literal or a name's resolution.
enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4(UInt32)
    /// The 16 bytes of an IPv6 address.
    case v6([UInt8])

    /// The address an IP literal spells (`127.0.0.1`, `::1`, `[::1]`), nil for anything else. Only the
    /// dotted-quad form is an IPv4 literal here: `127.1` is a name.
    init?(literal: String) {
        var text = literal
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// 127.0.0.0/8, ::1, and 127.0.0.0/8 mapped into IPv6 (`::ffff:127.0.0.1`).
    var isLoopback: Bool {
        switch self {
        case .v4(let address): address >> 24 == 127
        case .v6(let bytes): bytes == Array(repeating: 0, count: 15) + [1] || (Self.isMapped(bytes) && bytes[12] == 127)
        }
    }

    /// 0.0.0.0 and ::, which listen on every interface.
    var isUnspecified: Bool {
        switch self {
        case .v4(let address): address == 0
        case .v6(let bytes): bytes.allSatisfy { $0 == 0 }
        }
    }

    private static func isMapped(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
    }

    /// The canonical text (`127.0.0.1`, `::1`), so two spellings of one address compare equal.
    var description: String {
        switch self {
        case .v4(let address):
            return [24, 16, 8, 0].map { String((address >> UInt32($0)) & 0xff) }.joined(separator: ".")
        case .v6(var bytes):
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            _ = inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Every address `host` stands for: an IP literal's own, else what `getaddrinfo` resolves the name to;
    /// empty when it resolves to nothing.
    static func resolve(_ host: String) -> [IPAddress] {
        if let literal = IPAddress(literal: host) { return [literal] }
        guard !host.isEmpty else { return [] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var next = list
        while let entry = next {
            if let socketAddress = entry.pointee.ai_addr {
                switch entry.pointee.ai_family {
                case AF_INET:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        $0.pointee.sin_addr.s_addr
                    }
                    addresses.append(.v4(UInt32(bigEndian: address)))
                case AF_INET6:
                    var address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_addr
                    }
                    addresses.append(.v6(withUnsafeBytes(of: &address) { Array($0) }))
                default:
                    break
                }
            }
            next = entry.pointee.ai_next
        }
        return addresses
    }
}
