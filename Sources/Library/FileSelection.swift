#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The files `library add PATH...` means: files as given, folders walked recursively (hidden files and
/// folders skipped), globs (`*`, `?`, `[...]`) expanded; `--exclude` globs matched against the path and
/// the file name. Only types the library reads are taken from folders and globs; a file named directly is
/// always tried, so an unsupported one is reported.
public enum FileSelection {
    public static func files(_ arguments: [String], excluding excludes: [String] = [], relativeTo directory: URL) -> (files: [URL], missing: [String]) {
        var files: [URL] = []
        var missing: [String] = []
        var seen = Set<String>()
        func take(_ url: URL, named: Bool) {
            let path = url.standardizedFileURL.path
            guard named || DocumentType(fileExtension: url.pathExtension) != nil else { return }
            guard !excluded(path), seen.insert(path).inserted else { return }
            files.append(URL(fileURLWithPath: path))
        }
        for argument in arguments {
            let url = URL(fileURLWithPath: argument, relativeTo: directory).standardizedFileURL
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
                if isDirectory.boolValue {
                    walk(url).forEach { take($0, named: false) }
                } else {
                    take(url, named: true)
                }
            } else if argument.contains(where: { "*?[".contains($0) }) {
                let matches = glob(url.path)
                if matches.isEmpty { missing.append(argument) }
                for match in matches {
                    var isDirectory: ObjCBool = false
                    _ = FileManager.default.fileExists(atPath: match, isDirectory: &isDirectory)
                    if isDirectory.boolValue { walk(URL(fileURLWithPath: match)).forEach { take($0, named: false) } } else { take(URL(fileURLWithPath: match), named: false) }
                }
            } else {
                missing.append(argument)
            }
        }
        return (files, missing)

        func excluded(_ path: String) -> Bool {
            excludes.contains { pattern in
                fnmatch(pattern, path, 0) == 0 || fnmatch(pattern, (path as NSString).lastPathComponent, 0) == 0
                    || fnmatch("*/" + pattern, path, 0) == 0
            }
        }
    }

    /// Every regular file under `folder`, sorted, hidden entries skipped.
    static func walk(_ folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append(url.standardizedFileURL)
        }
        return files.sorted { $0.path < $1.path }
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
