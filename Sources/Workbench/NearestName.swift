/// "Did you mean …?": the known name closest to a mistyped one, by Damerau–Levenshtein distance (optimal string
/// alignment: an insertion, a deletion, a substitution or a swap of two neighbours costs 1), when it is close
/// enough to be a typo. Used for setting keys, preset keys and names, console commands, and the command line's
/// subcommands.
public enum NearestName {
    /// The candidate closest to `word`, case ignored, when it is within `max(2, its length / 3)` edits and fewer
    /// edits than `word` has letters (so `ls` suggests nothing rather than any two-letter neighbour); the first
    /// of equally close ones.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = word.lowercased()
        let scored = candidates.map { ($0, distance(typed, $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3), distance < typed.count else {
            return nil
        }
        return best
    }

    /// The number of single-character edits (a swap of two neighbours counting as one) from `a` to `b`.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Three rows of the table: the one before the previous is needed for a swap.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
