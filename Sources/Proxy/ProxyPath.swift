import ResponsesAPI

/// Where a request's path goes: under the upstream's `/v1`, with its dot segments resolved first (RFC 3986
/// §5.2.4), percent-encoded ones (`%2e%2e`) included. A path that climbs out of `/v1` on the way
/// (`/v1/../../x`), or hides a separator in a segment (`..%2f..`) that the upstream could decode, is refused:
/// what is forwarded is always `UPSTREAM/` plus segments the client sent, never above the upstream's prefix.
enum ProxyPath: Equatable {
    /// The path after `/v1` (`/responses`, or empty), each segment as the client encoded it.
    case upstream(String)
    /// Not under `/v1`, and no dot segment took it there or away: not for the proxy (404).
    case notProxied
    /// Refused (400): why.
    case outside(String)

    init(_ raw: String) {
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var kept: [Substring] = []
        var dotted = false
        var endsInDirectory = false
        for segment in segments {
            // A segment is judged by its part before `;` (servers of the Tomcat family take `..;x` as `..`),
            // and an escaped `%` (`%252e`, a dot to an upstream that decodes twice) is refused.
            let decoded = Self.percentDecoded(
                segment.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            endsInDirectory = false
            if decoded.contains(UInt8(ascii: "/")) || decoded.contains(UInt8(ascii: "\\"))
                || decoded.contains(UInt8(ascii: "%"))
            {
                self = .outside("the path \(raw) has a slash, a backslash or an escaped percent sign inside a segment")
                return
            }
            if decoded == [UInt8(ascii: ".")] {
                dotted = true
                endsInDirectory = true
            } else if decoded == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                dotted = true
                endsInDirectory = true
                guard kept.popLast() != nil else {
                    self = .outside("the path \(raw) climbs above the root")
                    return
                }
            } else {
                kept.append(segment)
            }
        }
        if endsInDirectory { kept.append("") }
        guard kept.first == "v1" else {
            self = dotted ? .outside("the path \(raw) leaves /v1, the only path the proxy forwards") : .notProxied
            return
        }
        self = .upstream(kept.dropFirst().map { "/" + $0 }.joined())
    }

    /// The bytes `segment` stands for, its `%XX` escapes decoded (a malformed escape is kept as it is).
    static func percentDecoded(_ segment: Substring) -> [UInt8] {
        PercentDecoding.decode(segment.utf8)
    }
}
