import Foundation
import ResponsesAPI

/// Reads fragments: a path through the library's extractors by its type (its extension, else what its
/// first bytes are), `-` from the standard input given, an `http(s)` URL fetched with a GET
/// (`FragmentFetcher`: no credentials, a size cap, a deadline) and read by its Content-Type. Text, Markdown,
/// JSON, CSV and source code go as they are; HTML as its text; PDF (poppler) and DOCX through their
/// extractors. Each source is read once; the same text from two sources is one fragment (`FragmentBatch`).
public struct FragmentReader: Sendable {
    public var extractors: Extractors
    /// Fetches URLs; nil when URLs cannot be read here.
    public var fetcher: FragmentFetcher?
    /// What relative paths are relative to.
    public var directory: URL

    public init(extractors: Extractors, fetcher: FragmentFetcher?, directory: URL) {
        self.extractors = extractors
        self.fetcher = fetcher
        self.directory = directory
    }

    /// Reads every source in order: the fragments, each distinct text once, and the sources whose text
    /// was already there. `standardInput` is what `-` reads (all of stdin, read by the caller).
    public func read(_ arguments: [String], standardInput: Data?) async throws(FragmentError) -> FragmentBatch {
        var batch = FragmentBatch()
        var seen: Set<FragmentSource> = []
        for argument in arguments {
            let source = FragmentSource(argument)
            guard seen.insert(source).inserted else { continue }
            batch.add(try await read(source, standardInput: standardInput))
        }
        return batch
    }

    /// One source's fragment, or an error naming it.
    public func read(_ source: FragmentSource, standardInput: Data?) async throws(FragmentError) -> Fragment {
        let name = source.description
        switch source {
        case .file(let path):
            let url = resolve(path)
            do throws(ResponsesAPIError) {
                _ = try LocalFile.size(of: url)
            } catch {
                throw FragmentError(source: name, Self.withoutPath(error.message, url.path))
            }
            let type = try Self.type(of: url, source: name)
            return try await extract(url, as: type, source: name)
        case .standardInput:
            guard let bytes = standardInput else { throw FragmentError(source: name, "nothing was piped") }
            return try await read(bytes, as: try Self.sniff(bytes, source: name), source: name)
        case .url(let url):
            guard let fetcher else { throw FragmentError(source: name, "URLs cannot be fetched here") }
            let fetched = try await fetcher.fetch(url)
            let type = try Self.type(contentType: fetched.contentType, url: url, bytes: fetched.body, source: name)
            return try await read(fetched.body, as: type, source: name)
        }
    }

    /// `bytes` read as `type`, through a private temporary copy (poppler and the DOCX reader read files).
    func read(_ bytes: Data, as type: DocumentType, source: String) async throws(FragmentError) -> Fragment {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "openresponses-fragment-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fragment." + Self.fileExtension(type))
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try bytes.write(to: file)
        } catch {
            throw FragmentError(source: source, "cannot keep a temporary copy: \(error.localizedDescription)")
        }
        return try await extract(file, as: type, source: source)
    }

    private func extract(_ url: URL, as type: DocumentType, source: String) async throws(FragmentError) -> Fragment {
        let document: ExtractedDocument
        do throws(LibraryError) {
            document = try await extractors.read(url, as: type)
        } catch {
            throw FragmentError(source: source, page: error.page, Self.withoutPath(error.message, url.path))
        }
        let fragment = Fragment(source: source, text: document.text, type: type)
        guard !fragment.text.isEmpty else { throw FragmentError(source: source, "holds no text") }
        return fragment
    }

    private func resolve(_ path: String) -> URL {
        let expanded = path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst() : path
        return URL(fileURLWithPath: expanded, relativeTo: directory).standardizedFileURL
    }

    /// A message about a copy or a resolved path, with that path taken out (the error names the source).
    static func withoutPath(_ message: String, _ path: String) -> String {
        var message = message
        for prefix in [path + ": ", path + " "] where message.hasPrefix(prefix) {
            message.removeFirst(prefix.count)
        }
        return message.replacingOccurrences(of: path, with: "it")
    }
}

/// The fragments of one prompt, each distinct text once, in the order given, and the sources that gave
/// a text already there (sent once: `duplicates` says with which).
public struct FragmentBatch: Sendable, Hashable {
    public var fragments: [Fragment] = []
    /// The sources whose text is that of an earlier fragment.
    public var duplicates: [Duplicate] = []

    /// A source whose text an earlier fragment (`sameAs`) already holds.
    public struct Duplicate: Sendable, Hashable {
        public var source: String
        public var sameAs: Fragment
    }

    public init(fragments: [Fragment] = []) {
        for fragment in fragments { add(fragment) }
    }

    /// Adds `fragment` unless its text is already here (then it is a duplicate of that one).
    public mutating func add(_ fragment: Fragment) {
        if let earlier = fragments.first(where: { $0.sha256 == fragment.sha256 }) {
            duplicates.append(Duplicate(source: fragment.source, sameAs: earlier))
        } else {
            fragments.append(fragment)
        }
    }

    /// Bytes of text the fragments send.
    public var byteCount: Int { fragments.reduce(0) { $0 + $1.byteCount } }

    /// "a-copy.md: the same text as a.md (sha256 ab12…): sent once", one a duplicate.
    public var notes: [String] {
        duplicates.map {
            "fragment \($0.source): the same text as \($0.sameAs.source) (sha256 \($0.sameAs.shortHash)): sent once"
        }
    }
}
