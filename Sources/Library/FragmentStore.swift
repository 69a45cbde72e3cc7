import Foundation

/// Where fragments are kept, by the SHA-256 of their text: `<directory>/<sha256>.txt` (mode 0600, in a
/// directory of mode 0700), written once however often the text is given, and `index.jsonl`, one line for
/// each text when it is first kept: `{"sha256", "source", "first_seen", "bytes"}`. The data directory's
/// `fragments/` (`AppEnvironment.fragmentsPath`).
public struct FragmentStore: Sendable {
    public var directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// One line of the index.
    public struct Entry: Sendable, Hashable, Codable {
        public var sha256: String
        /// The source the text was first read from.
        public var source: String
        /// When, in ISO 8601 (UTC).
        public var firstSeen: String
        public var bytes: Int

        enum CodingKeys: String, CodingKey {
            case sha256, source, bytes
            case firstSeen = "first_seen"
        }
    }

    /// The file holding the text with this hash.
    public func file(for sha256: String) -> URL { directory.appendingPathComponent(sha256 + ".txt") }

    /// Keeps `fragment` unless its text is kept already; true when it was new. Throws an error naming the
    /// source and the file when the directory or the file cannot be written.
    @discardableResult
    public func keep(_ fragment: Fragment, now: Date = Date()) throws(FragmentError) -> Bool {
        let file = self.file(for: fragment.sha256)
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard !FileManager.default.fileExists(atPath: file.path) else { return false }
            // Written beside it and renamed: a reader never sees half a file, and two writers of the same
            // text both leave the whole of it.
            let partial = directory.appendingPathComponent(".\(fragment.sha256).\(UUID().uuidString).partial")
            guard
                FileManager.default.createFile(
                    atPath: partial.path, contents: Data(fragment.text.utf8), attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown) }
            if rename(partial.path, file.path) != 0 {
                let failure = errno
                try? FileManager.default.removeItem(at: partial)
                throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
            }
            try append(
                Entry(
                    sha256: fragment.sha256, source: fragment.source, firstSeen: Self.timestamp(now),
                    bytes: fragment.byteCount))
            return true
        } catch let error as FragmentError {
            throw error
        } catch {
            throw FragmentError(
                source: fragment.source, "cannot keep it in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// The kept text with this hash, or nil.
    public func text(sha256: String) -> String? {
        FileManager.default.contents(atPath: file(for: sha256).path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The index, oldest first (lines that cannot be read are skipped).
    public func entries() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: indexFile.path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Entry.self, from: $0) }
    }

    var indexFile: URL { directory.appendingPathComponent("index.jsonl") }

    /// Appends one line with O_APPEND, so that processes keeping fragments at once do not interleave lines.
    private func append(_ entry: Entry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = try encoder.encode(entry) + Data("\n".utf8)
        let fd = open(indexFile.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
