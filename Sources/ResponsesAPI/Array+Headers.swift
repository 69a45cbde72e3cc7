extension Array where Element == (String, String) {
    /// The first value of header `name` in a list of (name, value) pairs, compared case-insensitively.
    public func headerValue(_ name: String) -> String? {
        first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
