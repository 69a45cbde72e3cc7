import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files `library add PATH...` means: files as given, folders walked recursively (hidden files and
/// folders skipped), globs (`*`, `?`, `[...]`) expanded; `--exclude` globs matched against the path and
/// the file name. Only types the library reads are taken from folders and globs; a file named directly is
/// always tried, so an unsupported one is reported. Symbolic links met by a walk or a glob follow one rule
/// (`FileSelection+Links`): one that leads out of the folder named is skipped and said.
public enum FileSelection {
    public static func files(_ arguments: [String], excluding excludes: [String] = [], relativeTo directory: URL) -> (
        files: [URL], missing: [String]
    ) {
        let selection = select(arguments, excluding: excludes, relativeTo: directory)
        return (selection.files, selection.missing)
    }

    /// The files the arguments mean, the arguments that match nothing, and the links passed over.
    public static func select(_ arguments: [String], excluding excludes: [String] = [], relativeTo directory: URL)
        -> Selection
    {
        var selection = Selection()
        var seen = Set<String>()
        func take(_ url: URL, named: Bool) {
            let path = url.standardizedFileURL.path
            guard named || DocumentType(fileExtension: url.pathExtension) != nil else { return }
            guard !excluded(path), seen.insert(path).inserted else { return }
            selection.files.append(URL(fileURLWithPath: path))
        }
        func walk(_ folder: URL, inside root: URL) {
            let found = Self.walk(folder, inside: root)
            found.files.forEach { take($0, named: false) }
            selection.skipped += found.skipped
        }
        for argument in arguments {
            let url = URL(fileURLWithPath: argument, relativeTo: directory).standardizedFileURL
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    walk(url, inside: url)
                } else {
                    take(url, named: true)
                }
            } else if argument.contains(where: { "*?[".contains($0) }) {
                let matches = glob(url.path)
                if matches.isEmpty { selection.missing.append(argument) }
                let root = globFolder(url.path)
                for match in matches {
                    if let skipped = leaving(match, root: root) {
                        selection.skipped.append(skipped)
                        continue
                    }
                    var isDirectory: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: match, isDirectory: &isDirectory)
                    if isDirectory.boolValue {
                        walk(URL(fileURLWithPath: match), inside: root)
                    } else {
                        take(URL(fileURLWithPath: match), named: false)
                    }
                }
            } else {
                selection.missing.append(argument)
            }
        }
        return selection

        func excluded(_ path: String) -> Bool {
            excludes.contains { pattern in
                fnmatch(pattern, path, 0) == 0 || fnmatch(pattern, (path as NSString).lastPathComponent, 0) == 0
                    || fnmatch("*/" + pattern, path, 0) == 0
            }
        }
    }

    /// Every regular file under `folder`, sorted, hidden entries skipped; symbolic links are not followed,
    /// and those leading out of `root` (the folder named) are returned as skipped.
    static func walk(_ folder: URL, inside root: URL) -> (files: [URL], skipped: [Skipped]) {
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey],
                options: [.skipsHiddenFiles])
        else { return ([], []) }
        var files: [URL] = []
        var skipped: [Skipped] = []
        for case let url as URL in enumerator {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            if values?.isSymbolicLink == true {
                if let leaving = leaving(url.path, root: root) { skipped.append(leaving) }
            } else if values?.isRegularFile == true {
                files.append(url.standardizedFileURL)
            }
        }
        return (files.sorted { $0.path < $1.path }, skipped.sorted { $0.path < $1.path })
    }

    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        #if canImport(Glibc)
            let status = Glibc.glob(pattern, 0, nil, &result)
        #else
            let status = Darwin.glob(pattern, 0, nil, &result)
        #endif
        guard status == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { result.gl_pathv[$0].map { String(cString: $0) } }.sorted()
    }
}
