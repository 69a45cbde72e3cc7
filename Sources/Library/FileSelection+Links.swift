import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSelection {
    /// What `library add PATH...` takes, what it could not find, and what it passed over and why.
    public struct Selection: Sendable, Hashable {
        public var files: [URL] = []
        public var missing: [String] = []
        public var skipped: [Skipped] = []
    }

    /// A path found by a folder walk or a glob and not taken: a symbolic link that leaves the folder named.
    public struct Skipped: Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Where `path` really is (every link on the way resolved), or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// Nil when `path`, every link on the way resolved, is inside `root`; else why it is skipped.
    static func leaving(_ path: String, root: URL) -> Skipped? {
        let base = resolved(root.path) ?? root.path
        guard let target = resolved(path) else {
            return Skipped(path: path, reason: "a symbolic link to nothing")
        }
        if target == base || target.hasPrefix(base.hasSuffix("/") ? base : base + "/") { return nil }
        return Skipped(
            path: path,
            reason: "leads out of \(root.path) through a symbolic link (to \(target)), which is not followed")
    }

    /// The folder a glob names: its leading components without `*`, `?` or `[` (`docs` for `docs/*/*.md`).
    static func globFolder(_ pattern: String) -> URL {
        var components: [String] = []
        for component in pattern.split(separator: "/", omittingEmptySubsequences: false).dropLast() {
            if component.contains(where: { "*?[".contains($0) }) { break }
            components.append(String(component))
        }
        let path = components.joined(separator: "/")
        return URL(fileURLWithPath: path.isEmpty ? "/" : path, isDirectory: true)
    }
}
