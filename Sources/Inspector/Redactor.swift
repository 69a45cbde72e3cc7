import ResponsesAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes secrets before anything is stored: secret headers by name, and every occurrence of each
/// secret value (the API key) anywhere in headers, bodies and events. Ordinary fields whose names merely
/// contain a word like "tokens" (`max_output_tokens`, `x-ratelimit-remaining-tokens`) stay exact.
public struct Redactor: Sendable {
    public static let placeholder = "[REDACTED]"
    let secrets: [[UInt8]]

    public init(secrets: [String]) {
        // Longest first, so a secret containing another is replaced whole; very short values are not
        // secrets worth hunting (and would shred ordinary text).
        self.secrets = ByteSearch.secrets(secrets)
    }

    /// True when a header of this name carries a credential: authorization and api-key, and any name
    /// with a word key, token, secret, cookie, password or auth in it.
    public static func isSecretHeader(_ name: String) -> Bool {
        isSecretName(name)
    }

    /// True when a header or query parameter of this name carries a credential (`RequestSecrets`).
    public static func isSecretName(_ name: String) -> Bool {
        RequestSecrets.isSecretName(name)
    }

    /// A request body with the `authorization` and every `headers` value of its MCP tools replaced. The
    /// bytes are returned untouched when there is nothing to replace (the body is re-serialised, in its own
    /// key order, only when there is).
    public static func redactingMCPSecrets(_ body: [UInt8]) -> [UInt8] {
        guard body.count > 0, case .object(var object)? = try? JSONValue.parse(body),
            case .array(var tools)? = object["tools"]
        else { return body }
        guard tools.contains(where: carriesSecrets) else { return body }
        for (index, tool) in tools.enumerated() {
            guard case .object(var fields) = tool, carriesSecrets(tool) else { continue }
            if fields["authorization"] != nil { fields["authorization"] = .string(placeholder) }
            if case .object(var headers)? = fields["headers"] {
                for (name, _) in headers { headers[name] = .string(placeholder) }
                fields["headers"] = .object(headers)
            }
            tools[index] = .object(fields)
        }
        object["tools"] = .array(tools)
        return JSONValue.object(object).serialized()
    }

    /// The same, given the body read with its long strings cut (`JSONValue.parse(_:stringPrefix:)`): parsed
    /// whole again only when an MCP tool in it has something to replace.
    static func redactingMCPSecrets(_ body: [UInt8], skimmed: JSONValue?) -> [UInt8] {
        (skimmed?["tools"]?.arrayValue ?? []).contains(where: carriesSecrets) ? redactingMCPSecrets(body) : body
    }

    /// An MCP tool with an `authorization` or `headers` to replace.
    static func carriesSecrets(_ tool: JSONValue) -> Bool {
        tool["type"]?.stringValue == "mcp" && (tool["authorization"] != nil || tool["headers"]?.objectValue != nil)
    }

    public func redact(headers: [(String, String)]) -> [(String, String)] {
        headers.map { name, value in
            Self.isSecretHeader(name) ? (name, Self.placeholder) : (name, redact(value))
        }
    }

    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        let bytes = Array(text.utf8)
        let redacted = redact(bytes)
        return redacted.count == bytes.count && redacted == bytes ? text : String(decoding: redacted, as: UTF8.self)
    }

    /// Replaces every occurrence of every secret in `bytes`.
    public func redact(_ bytes: [UInt8]) -> [UInt8] {
        var current = bytes
        for secret in secrets {
            current = Self.replace(secret, in: current)
        }
        return current
    }

    /// True when any secret occurs in `bytes`: one pass per secret over a whole batch of events.
    public func occurs(in bytes: UnsafeRawBufferPointer) -> Bool {
        secrets.contains { secret in
            secret.withUnsafeBytes { ByteSearch.find($0, in: bytes) != nil }
        }
    }

    static let placeholderBytes = Array(placeholder.utf8)

    private static func replace(_ needle: [UInt8], in haystack: [UInt8]) -> [UInt8] {
        guard haystack.count >= needle.count else { return haystack }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { nee in
                var output: [UInt8]? = nil
                var start = 0
                while start <= hay.count - nee.count,
                    let position = ByteSearch.find(nee, in: hay, from: start)
                {
                    if output == nil {
                        output = []
                        output!.reserveCapacity(hay.count)
                    }
                    output!.append(contentsOf: hay[start..<position])
                    output!.append(contentsOf: placeholderBytes)
                    start = position + nee.count
                }
                guard var result = output else { return haystack }
                result.append(contentsOf: hay[start...])
                return result
            }
        }
    }
}
