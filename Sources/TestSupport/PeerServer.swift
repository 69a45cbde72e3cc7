import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the peer server is: llama-stack with a fake echo model (`scripts/peer.sh`, or
/// `../shared/peer/oai-peer.sh`), the independently written Responses server the peer suites run against.
///
/// `OPENRESPONSES_PEER_URL` when it is set (as `scripts/test.sh` does); otherwise the usual address,
/// `http://127.0.0.1:8321/v1`, when it answers `GET /models` with the echo model within 3 seconds. Nil when
/// there is no peer, or when `OPENRESPONSES_SKIP_PEER=1`: the peer suites are then reported as skipped, with
/// `skipReason`.
public enum PeerServer {
    public static let usualURL = "http://127.0.0.1:8321/v1"

    /// The model the peer answers with (an echo of the input).
    public static let model =
        ProcessInfo.processInfo.environment["OPENRESPONSES_PEER_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "openai/echo"

    /// The peer's embedding model (llama-stack names LiteLLM's `minilm` so).
    public static let embeddingModel =
        ProcessInfo.processInfo.environment["OPENRESPONSES_PEER_EMBEDDING_MODEL"]
        .flatMap { $0.isEmpty ? nil : $0 } ?? "openai/minilm"

    /// The peer's base URL, looked for once per test process.
    public static var baseURL: String? { found.url }

    /// Why the peer suites are skipped (shown beside each skipped suite).
    public static var skipReason: String { found.reason }

    private static let found = discover(environment: ProcessInfo.processInfo.environment)

    static func discover(environment: [String: String]) -> (url: String?, reason: String) {
        if environment["OPENRESPONSES_SKIP_PEER"] == "1" {
            return (nil, "OPENRESPONSES_SKIP_PEER=1 leaves the peer out")
        }
        if let url = environment["OPENRESPONSES_PEER_URL"], !url.isEmpty { return (url, "") }
        guard let body = models(at: usualURL, timeout: 3) else {
            return (
                nil,
                "no peer server: OPENRESPONSES_PEER_URL is not set and nothing answers at \(usualURL) (scripts/peer.sh start)"
            )
        }
        guard body.contains("\"\(model)\"") else {
            return (nil, "the server at \(usualURL) does not list the model \(model) (OPENRESPONSES_PEER_MODEL)")
        }
        return (usualURL, "")
    }

    /// The body of `GET {baseURL}/models` when it answers 200 within `timeout` seconds (plain http only).
    static func models(at baseURL: String, timeout: Double) -> String? {
        guard let url = URLComponents(string: baseURL), url.scheme == "http", let host = url.host else { return nil }
        return get(host: host, port: UInt16(url.port ?? 80), path: url.path + "/models", timeout: timeout)
    }

    /// The body of a `200` answer to `GET path` over HTTP/1.0, or nil (refused, another status, or no
    /// complete answer within `timeout` seconds). A plain blocking socket: it runs once, while the test
    /// traits are evaluated.
    static func get(host: String, port: UInt16, path: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            guard errno == EINPROGRESS, wait(fd, for: Int16(POLLOUT), until: deadline) else { return nil }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 else { return nil }
        }
        var request = Array(
            "GET \(path) HTTP/1.0\r\nHost: \(host):\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
                .utf8)[...]
        while !request.isEmpty {
            guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return nil }
            let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            if sent < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return nil } }
            request = request.dropFirst(sent)
        }
        // Read to the end of the body: its Content-Length, or the server closing the connection.
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while answer.count < 1 << 20, !complete(answer) {
            guard wait(fd, for: Int16(POLLIN), until: deadline) else { return nil }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { break }
            if count < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return nil } }
            answer.append(contentsOf: buffer[..<count])
        }
        guard let (head, body) = split(answer),
            head.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first == "200"
        else { return nil }
        return body
    }

    /// The head and the body of an answer, once the head is complete.
    private static func split(_ answer: [UInt8]) -> (head: String, body: String)? {
        let text = String(decoding: answer, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        return (String(text[..<end.lowerBound]), String(text[end.upperBound...]))
    }

    /// True once the head and as many body bytes as its Content-Length says have arrived.
    private static func complete(_ answer: [UInt8]) -> Bool {
        guard let (head, body) = split(answer) else { return false }
        let length = head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
        return length.map { body.utf8.count >= $0 } ?? false
    }

    private static func wait(_ fd: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let remaining = Int32(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, remaining)
            if ready > 0 { return true }
            if ready < 0 && errno == EINTR { continue }
            return false
        }
    }
}

extension PeerServer {
    /// LiteLLM in front of the peer (`oai-peer.sh` starts it beside llama-stack): key `sk-test-1234`, model
    /// `echo`, and it does not keep `previous_response_id`.
    public static let litellmURL = "http://127.0.0.1:4000/v1"

    /// A config.yaml naming both peers as providers: `stack` (llama-stack at `stack`) and `litellm` (its key in
    /// `$LITELLM_KEY`).
    public static func providersConfig(stack: String) -> String {
        """
        version: 1
        providers:
          stack:
            base_url: \(stack)
            model: \(model)
          litellm:
            base_url: \(litellmURL)
            key_env: LITELLM_KEY
            model: echo

        """
    }
}
