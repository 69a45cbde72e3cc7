import ResponsesAPI

/// The secrets one exchange carries besides the API key it was given (`RequestSecrets`, the wire layer's
/// rule, so the stream's skimmer knows them too): the values of its secret-named request headers and of the
/// secret-named parameters of its URL's query. Each is redacted wherever it occurs, as the key is: in the
/// stored URL, headers, bodies, events and texts.
extension Redactor {
    /// A redactor for `request`: its given secrets, and those its headers and URL carry.
    public init(request: ExchangeRequest) {
        self.init(
            secrets: request.secrets + RequestSecrets.inHeaders(request.headers) + RequestSecrets.inURL(request.url))
    }

    /// The URL with the value of each secret-named query parameter replaced (whatever its length), and
    /// every occurrence of a secret elsewhere in it; every other byte stays as it was.
    public func redact(url: String) -> String {
        var bytes = Array(url.utf8)
        let values = RequestSecrets.queryValues(in: bytes)
        for range in values.reversed() { bytes.replaceSubrange(range, with: Self.placeholderBytes) }
        let redacted = redact(bytes)
        return values.isEmpty && redacted == bytes ? url : String(decoding: redacted, as: UTF8.self)
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
