/// The secrets a request carries besides the API key: the values of its secret-named headers
/// (`X-Goog-Api-Key`, `api-key`, a gateway's `X-Auth-Token`, cookies) and of the secret-named parameters of
/// its URL's query (`?key=`, `?api_key=`, `?access_token=`, `?sig=`). Decided here, in the wire layer, so that
/// the stream's repeat skimmer and the inspector's redactor know the same secrets (a final event that repeats
/// a text holding one is kept whole, and redacted, never cut against deltas the inspector then changes).
public enum RequestSecrets {
    /// The API key, and every secret `headers` and `url` carry.
    public static func values(apiKey: String?, headers: [(String, String)], url: String) -> [String] {
        (apiKey.map { [$0] } ?? []) + inHeaders(headers) + inURL(url)
    }

    /// True when a header or query parameter of this name carries a credential: a word of it (words are
    /// separated by anything but a letter or digit, and begin at a capital after a small letter:
    /// `accessToken`) is one of `secretWords`. `max_output_tokens` and `x-ratelimit-remaining-tokens` are not.
    public static func isSecretName(_ name: String) -> Bool {
        var words: [[UInt8]] = [[]]
        var previous: UInt8 = 0
        for byte in name.utf8 {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if !(isUpper || isLower || isDigit) {
                if !words[words.count - 1].isEmpty { words.append([]) }
            } else {
                if isUpper, previous >= UInt8(ascii: "a"), previous <= UInt8(ascii: "z") { words.append([]) }
                words[words.count - 1].append(isUpper ? byte + 32 : byte)
            }
            previous = byte
        }
        return words.contains { word in secretWords.contains { $0 == word } }
    }

    /// The words that make a name secret, as bytes: compared with a name's words without hashing them.
    static let secretWords: [[UInt8]] = [
        "authorization", "auth", "key", "apikey", "token", "secret", "cookie", "password", "passwd", "credential",
        "credentials",
        "sig", "signature",
    ].map { Array($0.utf8) }

    /// The credentials in secret-named headers: each value whole, the credential after a scheme
    /// (`Bearer KEY`, `Token KEY`), and each cookie's value. (Values under 8 bytes are not hunted in
    /// bodies, `ByteSearch.secrets`; the header itself is replaced by its name whatever its value.)
    public static func inHeaders(_ headers: [(String, String)]) -> [String] {
        var found: [String] = []
        for (name, value) in headers where isSecretName(name) {
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
    public static func inURL(_ url: String) -> [String] {
        let bytes = Array(url.utf8)
        return queryValues(in: bytes).flatMap { range -> [String] in
            let raw = Array(bytes[range])
            let decoded = PercentDecoding.decode(raw, plusAsSpace: true)
            return decoded == raw
                ? [String(decoding: raw, as: UTF8.self)]
                : [String(decoding: raw, as: UTF8.self), String(decoding: decoded, as: UTF8.self)]
        }
    }

    /// Where the values of secret-named query parameters are in `url` (its bytes), in order: the query is
    /// what follows the first `?`, up to a `#`; parameters are separated by `&` or `;`.
    public static func queryValues(in url: [UInt8]) -> [Range<Int>] {
        guard let question = url.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        let end = url[question...].firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        var ranges: [Range<Int>] = []
        var start = question + 1
        while start < end {
            let stop = url[start..<end].firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") } ?? end
            if let equals = url[start..<stop].firstIndex(of: UInt8(ascii: "=")), equals + 1 < stop,
                isSecretName(
                    String(decoding: PercentDecoding.decode(url[start..<equals], plusAsSpace: true), as: UTF8.self))
            {
                ranges.append((equals + 1)..<stop)
            }
            start = stop + 1
        }
        return ranges
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
