/// Lines that never go into the history file: any holding the API key (or another secret the console
/// knows), anything shaped like an API key or a bearer token, and `/set` of a key that names a secret.
enum HistoryFilter {
    static func holdsSecret(_ line: String, secrets: [String]) -> Bool {
        if secrets.contains(where: { $0.count >= 8 && line.contains($0) }) { return true }
        if line.range(of: #"\b(sk|rk|pk)-[A-Za-z0-9_-]{16,}"#, options: .regularExpression) != nil { return true }
        if line.range(of: #"(?i)\bbearer\s+\S{8,}"#, options: .regularExpression) != nil { return true }
        let words = line.split(separator: " ")
        if words.first == "/set", words.count > 1,
            words[1].lowercased().range(of: "key|token|secret|password|authorization", options: .regularExpression)
                != nil,
            words[1] != "prompt_cache_key"
        {
            return true
        }
        return false
    }
}
