extension String {
    /// The text followed by spaces up to `width` characters (as it is when it is as long already): a column of a
    /// plain-text table.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
