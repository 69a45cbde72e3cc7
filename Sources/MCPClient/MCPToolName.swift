/// The function names MCP tools are offered under: `SERVER__tool`, in the characters and length a function's name
/// may have (`[A-Za-z0-9_-]`, at most 64), unique across every enabled server. A tool's own name may hold any
/// character (a server is untrusted): what the model sees is made from it by scalar, and the map back is kept,
/// never parsed out of the name.
public enum MCPToolName {
    public static let separator = "__"
    public static let maximumLength = 64

    /// A server's name can prefix its tools' names: letters, digits, '-' and '_' (neither first nor last, so that
    /// `a` + `_x` and `a_` + `x` cannot meet), no "__", 1 to 32 long.
    public static func isUsableServerName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 32 && !name.contains(separator)
            && name.unicodeScalars.allSatisfy(isAllowed) && !"_-".contains(name.first!) && !"_-".contains(name.last!)
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                || scalar == "-")
    }

    /// Names for `tools` of `server` that are not in `taken`: each scalar a name may not hold becomes '_', the
    /// whole is cut to 64 scalars, and a name already taken gets `_2`, `_3`... in place of its end.
    public static func assign(server: String, tools: [String], taken: Set<String>) -> [String] {
        var used = taken
        // The next number to try for each base name: a server sending one name a thousand times costs a thousand
        // steps, not a million.
        var next: [String: Int] = [:]
        return tools.map { tool in
            let cleaned = String(String.UnicodeScalarView(tool.unicodeScalars.map { isAllowed($0) ? $0 : "_" }))
            let base = String((server + separator + (cleaned.isEmpty ? "tool" : cleaned)).prefix(maximumLength))
            var name = base
            var number = next[base] ?? 2
            while used.contains(name) {
                let suffix = "_\(number)"
                name = String(base.prefix(maximumLength - suffix.count)) + suffix
                number += 1
            }
            next[base] = number
            used.insert(name)
            return name
        }
    }
}
