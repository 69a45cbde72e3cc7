#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension String {
    /// Whether the string's UTF-8 is exactly `bytes`. A stream repeats a few strings on every event (its event
    /// names, a message's item id): the last one is reused when this holds, where a new string would be an
    /// allocation and a UTF-8 check.
    @inline(__always)
    func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.count == bytes.count else { return false }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return utf8.withContiguousStorageIfAvailable { stored in
            stored.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false
        } == true
    }
}
