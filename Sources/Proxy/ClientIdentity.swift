/// Which program sent a request, from its headers: its `User-Agent`, and what the official SDKs add as
/// `x-stainless-*` headers (language, package version, runtime, OS). Stored in the inspector's `client`
/// column, so `inspect list --client python` finds a program's exchanges.
enum ClientIdentity {
    static func describe(_ headers: [(String, String)]) -> String? {
        func value(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name }.map(\.1).flatMap { $0.isEmpty ? nil : $0 }
        }
        var parts: [String] = []
        if let agent = value("user-agent") { parts.append(agent) }
        let sdk = [
            value("x-stainless-lang").map { lang in value("x-stainless-package-version").map { "\(lang) \($0)" } ?? lang
            },
            value("x-stainless-runtime").map { runtime in
                value("x-stainless-runtime-version").map { "\(runtime) \($0)" } ?? runtime
            },
            value("x-stainless-os"),
        ].compactMap { $0 }
        if !sdk.isEmpty { parts.append("(" + sdk.joined(separator: ", ") + ")") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
