/// A file name made from one a server, a model or a document chose: never a path. Only `[A-Za-z0-9._-]`
/// is kept (anything else becomes `_`), never a leading dot (no hidden files, no `.` or `..`), at most
/// `maximumLength` bytes; empty, it is the fallback. `../../.bashrc` becomes `bashrc`; `/etc/passwd`,
/// `etc_passwd`; a leading `-` is dropped too, so a name is never an option.
public struct SafeFileName: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public static let maximumLength = 120

    public var description: String { name }

    /// `untrusted` as a safe name, else `fallback` (itself made safe; `file` if that is empty too).
    public init(_ untrusted: String, fallback: String = "file") {
        let name = Self.sanitized(untrusted)
        if !name.isEmpty {
            self.name = name
        } else {
            let other = Self.sanitized(fallback)
            self.name = other.isEmpty ? "file" : other
        }
    }

    /// A stem and an extension, each made safe: `SafeFileName(stem: id, extension: format)`. An extension
    /// that is not letters and digits alone is dropped.
    public init(stem: String, extension: String?, fallback: String = "file") {
        let base = SafeFileName(stem, fallback: fallback).name
        let suffix =
            (`extension` ?? "").unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
            }
            ? String((`extension` ?? "").prefix(10)) : ""
        if suffix.isEmpty {
            self.name = base
        } else {
            self.name = String(base.prefix(Self.maximumLength - suffix.count - 1)) + "." + suffix
        }
    }

    static func sanitized(_ text: String) -> String {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let allowed =
                (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == 0x2E || value == 0x5F || value == 0x2D
            if allowed {
                bytes.append(UInt8(value))
            } else if value != 0x2F || bytes.last != UInt8(ascii: "_") {
                bytes.append(UInt8(ascii: "_"))
            }
        }
        // No leading dots or separators made of the path's pieces: `../../x` → `x`.
        while let first = bytes.first,
            first == UInt8(ascii: ".") || first == UInt8(ascii: "_") || first == UInt8(ascii: "-")
        {
            bytes.removeFirst()
        }
        if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        while let last = bytes.last, last == UInt8(ascii: ".") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
