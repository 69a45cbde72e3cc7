import ResponsesAPI

/// The secrets one exchange carries besides the API key it was given: the values of its secret-named
/// request headers (`X-Goog-Api-Key`, `api-key`, a gateway's `X-Auth-Token`, cookies) and of the
/// secret-named parameters of its URL's query (`?key=`, `?api_key=`, `?access_token=`, `?sig=`). Each is
/// redacted wherever it occurs, as the key is: in the stored URL, headers, bodies, events and texts.
extension Redactor {
    /// A redactor for `request`: its given secrets, and those its headers and URL carry.
    public init(request: ExchangeRequest) {
        self.init(
            secrets: request.secrets + Self.secrets(inHeaders: request.headers) + Self.secrets(inURL: request.url))
    }

    /// The URL with the value of each secret-named query parameter replaced (whatever its length), and
    /// every occurrence of a secret elsewhere in it; every other byte stays as it was.
    public func redact(url: String) -> String {
        var bytes = Array(url.utf8)
        let values = Self.secretQueryValues(in: bytes)
        for range in values.reversed() { bytes.replaceSubrange(range, with: Self.placeholderBytes) }
        let redacted = redact(bytes)
        return values.isEmpty && redacted == bytes ? url : String(decoding: redacted, as: UTF8.self)
    }

    /// The credentials in secret-named headers: each value whole, the credential after a scheme
    /// (`Bearer KEY`, `Token KEY`), and each cookie's value. (Values under 8 bytes are not hunted in
    /// bodies, `ByteSearch.secrets`; the header itself is replaced by its name whatever its value.)
    static func secrets(inHeaders headers: [(String, String)]) -> [String] {
        var found: [String] = []
        for (name, value) in headers where isSecretHeader(name) {
            let value = trimmed(value[...])
            found.append(value)
            if let space = value.lastIndex(of: " ") { found.append(trimmed(value[value.index(after: space)...])) }
            if name.lowercased().contains("cookie") {
                for pair in value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") {
                        found.append(trimmed(pair[pair.index(after: equals)...]))
                    }
                }
            }
        }
        return found
    }

    /// The values of the URL's secret-named query parameters, as written and percent-decoded (a body may
    /// hold either).
    static func secrets(inURL url: String) -> [String] {
        let bytes = Array(url.utf8)
        return secretQueryValues(in: bytes).flatMap { range -> [String] in
            let raw = Array(bytes[range])
            let decoded = percentDecoded(raw)
            return decoded == raw
                ? [String(decoding: raw, as: UTF8.self)]
                : [String(decoding: raw, as: UTF8.self), String(decoding: decoded, as: UTF8.self)]
        }
    }

    /// Where the values of secret-named query parameters are in `url` (its bytes), in order: the query is
    /// what follows the first `?`, up to a `#`; parameters are separated by `&` or `;`.
    static func secretQueryValues(in url: [UInt8]) -> [Range<Int>] {
        guard let question = url.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        let end = url[question...].firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        var ranges: [Range<Int>] = []
        var start = question + 1
        while start < end {
            let stop = url[start..<end].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") } ?? end
            if let equals = url[start..<stop].firstIndex(of: UInt8(ascii: "=")), equals + 1 < stop,
                isSecretName(String(decoding: percentDecoded(Array(url[start..<equals])), as: UTF8.self))
            {
                ranges.append((equals + 1)..<stop)
            }
            start = stop + 1
        }
        return ranges
    }

    /// `%XX` decoded and `+` read as a space (a query's form encoding); other bytes as they are.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        PercentDecoding.decode(bytes, plusAsSpace: true)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension Redactor {
    /// Every occurrence of every secret overwritten with `*`, byte for byte: for bytes whose offsets must
    /// hold (a final event whose repeated text is cut out and put back at an offset when it is read).
    func mask(_ bytes: [UInt8]) -> [UInt8] {
        var masked = bytes
        masked.withUnsafeMutableBytes { haystack in
            for secret in secrets {
                secret.withUnsafeBytes { needle in
                    var start = 0
                    while let position = ByteSearch.find(needle, in: UnsafeRawBufferPointer(haystack), from: start) {
                        for index in position..<(position + needle.count) { haystack[index] = UInt8(ascii: "*") }
                        start = position + needle.count
                    }
                }
            }
        }
        return masked
    }
}
