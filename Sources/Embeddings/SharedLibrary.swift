#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A shared library opened with `dlopen` when first needed instead of linked, so that a command that does not
/// use it does not load and relocate it at start (OpenBLAS here, libxml2 in Library: Docs/performance.md).
/// One search serves both: the first of several candidate paths that opens and has what the caller needs.
public struct SharedLibrary {
    public let path: String
    let handle: UnsafeMutableRawPointer

    /// The symbol `name` as `type` (a `@convention(c)` function type); nil when the library has none.
    public func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }

    /// The first of `candidates` that opens and from which `make` makes a value (nil when a symbol it needs is
    /// missing: that library is closed and `lacking` says why it was passed over); else why each was passed
    /// over, in order (the loader's message for one that did not open).
    public static func first<T>(
        of candidates: [String], lacking: String, _ make: (SharedLibrary) -> T?
    ) -> Result<T, PassedOver> {
        var reasons: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(path): cannot be opened")
                continue
            }
            if let made = make(SharedLibrary(path: path, handle: handle)) { return .success(made) }
            reasons.append("\(path): \(lacking)")
            dlclose(handle)
        }
        return .failure(PassedOver(reasons: reasons))
    }

    /// Why each candidate was passed over.
    public struct PassedOver: Error, Sendable {
        public let reasons: [String]

        /// " (reason; reason)", or nothing when no candidate was tried.
        public var listed: String { reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")" }
    }
}
