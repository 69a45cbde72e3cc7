import Foundation

/// Clipboard programs that are shell scripts in a temporary folder, put first on a `PATH` (`/paste`'s tests):
/// a `wl-paste` or an `xclip` that lists the types in `types` and prints the bytes of `image` for an image
/// type, of `text` for any other; or any script of a test's own.
public struct FakeClipboard: Sendable {
    public let directory: URL

    /// A 1x1 PNG, whole.
    public static let png: [UInt8] = Array(
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
        )!)

    /// A new, empty folder.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-clipboard-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The folder first, then the system's.
    public var path: String { directory.path + ":/usr/bin:/bin" }

    /// A `wl-paste` listing `types` (`--list-types`), printing `image` for `--type image/...` and `text` else.
    public func wlPaste(types: [String], image: [UInt8] = [], text: String = "") throws {
        try fake("wl-paste", listedBy: "--list-types", imageBy: "--type image/", types: types, image: image, text: text)
    }

    /// An `xclip` listing `types` (`-t TARGETS -o`), printing `image` for `-t image/...` and `text` else.
    public func xclip(types: [String], image: [UInt8] = [], text: String = "") throws {
        try fake("xclip", listedBy: "-t TARGETS", imageBy: "-t image/", types: types, image: image, text: text)
    }

    /// Writes `body` as the executable `name` (a `/bin/sh` script).
    public func script(_ name: String, _ body: String) throws {
        let url = directory.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body + "\n").write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The program `name`, printing the types when its arguments hold `listing`, the image when they hold
    /// `imageFlag`, the text else.
    private func fake(
        _ name: String, listedBy listing: String, imageBy imageFlag: String, types: [String], image: [UInt8],
        text: String
    ) throws {
        try Data(types.map { $0 + "\n" }.joined().utf8).write(to: directory.appendingPathComponent("types"))
        try Data(image).write(to: directory.appendingPathComponent("image"))
        try Data(text.utf8).write(to: directory.appendingPathComponent("text"))
        try script(
            name,
            """
            case "$*" in
              *"\(listing)"*) cat '\(directory.path)/types' ;;
              *"\(imageFlag)"*) cat '\(directory.path)/image' ;;
              *) cat '\(directory.path)/text' ;;
            esac
            """)
    }
}
