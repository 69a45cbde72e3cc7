import Digest
import Foundation
import Testing

/// SHA-256 against NIST's vectors (FIPS 180-4 examples and the CAVP short and long messages), fed whole and in
/// pieces of every size across the 64-byte block, and against `sha256sum` on a file.
@Suite("SHA-256")
struct SHA256Tests {
    static let vectors: [(String, String)] = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ]

    @Test func nistVectors() {
        for (message, digest) in Self.vectors { #expect(SHA256.hex(Array(message.utf8)) == digest, "\(message)") }
        // One million 'a's (FIPS 180-2, appendix B.3).
        #expect(
            SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecesOfEverySizeGiveTheSameDigest() {
        let message = Array((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let whole = SHA256.hex(message)
        for size in 1...130 {
            var hasher = SHA256()
            var offset = 0
            while offset < message.count {
                hasher.update(message[offset..<min(offset + size, message.count)])
                offset += size
            }
            #expect(SHA256.hex(digest: hasher.finalize()) == whole, "pieces of \(size)")
        }
        // Lengths around the padding's edges (55, 56, 63, 64 bytes) against the tool.
        for length in [55, 56, 63, 64, 65, 119, 120] {
            let bytes = [UInt8](repeating: 0x61, count: length)
            #expect(SHA256.hex(bytes) == Self.sha256sum(bytes), "\(length) bytes")
        }
    }

    /// What coreutils' `sha256sum` says of `bytes`.
    static func sha256sum(_ bytes: [UInt8]) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try? Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
