import Foundation
import Testing

@testable import Proxy

/// What the proxy refuses to start with: the user's key offered without a token (any program or web page on
/// the machine could spend it), a token file others can read, an address called loopback for its spelling.
@Suite("recording proxy: what it starts with")
struct ProxyStartupTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-start-\(UUID().uuidString)")

    @Test func theKeyFromTheEnvironmentNeedsAToken() throws {
        let open = ProxyConfiguration(upstream: "https://api.openai.com/v1", upstreamKey: "sk-env")
        #expect(throws: ProxyError.self) { try open.validate() }
        do { try open.validate() } catch {
            #expect(
                error.message.hasPrefix("--key-from-env needs --token SECRET or --token-file PATH"), "\(error.message)")
        }
        try ProxyConfiguration(upstream: "https://api.openai.com/v1", token: "t", upstreamKey: "sk-env").validate()
        // The client's own key forwarded: nothing of the user's to spend, loopback needs no token.
        try ProxyConfiguration(upstream: "https://api.openai.com/v1").validate()
    }

    @Test func upstreamConnectionsAreBoundedByTheOpenFilesAllowed() throws {
        func refusal(_ connections: Int, limit: Int?) -> String? {
            do {
                try ProxyConfiguration(upstream: "https://api.openai.com/v1", upstreamConnections: connections)
                    .validate(openFileLimit: limit)
                return nil
            } catch { return error.message }
        }
        #expect(refusal(256, limit: 1024) == nil)
        #expect(refusal(0, limit: nil)?.hasPrefix("--upstream-connections 0: expected a number from 1 to 4096") == true)
        #expect(refusal(4097, limit: nil)?.hasPrefix("--upstream-connections 4097") == true)
        let message = refusal(1000, limit: 1024)
        #expect(message?.contains("1000 streams need about 2064 open files, and this process may have 1024") == true)
        #expect(refusal(1000, limit: 20000) == nil)
    }

    @Test func loopbackIsDecidedOnTheAddressNotItsSpelling() throws {
        func loopback(_ host: String) -> Bool {
            ProxyConfiguration(host: host, upstream: "https://api.openai.com/v1").listensOnLoopback
        }
        for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost"] {
            #expect(loopback(host), "\(host)")
        }
        for host in [
            "127.evil.example", "127.0.0.1.nip.invalid", "0.0.0.0", "::", "10.0.0.1", "::ffff:10.0.0.1", "1270.0.0.1",
        ] {
            #expect(!loopback(host), "\(host)")
        }
        let named = ProxyConfiguration(host: "127.evil.example", upstream: "https://api.openai.com/v1")
        #expect(throws: ProxyError.self) { try named.validate() }
    }

    @Test func aTokenFileMustBeTheUsersAlone() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token")
        try Data("tok-from-file-0008\n".utf8).write(to: file)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        #expect(throws: ProxyError.self) { try ProxyToken.read(fromFile: file.path) }
        do { _ = try ProxyToken.read(fromFile: file.path) } catch {
            #expect(
                error.message
                    == "--token-file \(file.path): its mode is 0644, so other users can read it: chmod 600 \(file.path)"
            )
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
        #expect(throws: ProxyError.self) { try ProxyToken.read(fromFile: file.path) }

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try ProxyToken.read(fromFile: file.path) == "tok-from-file-0008", "the line's end is not part of it")
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: file.path)
        #expect(try ProxyToken.read(fromFile: file.path) == "tok-from-file-0008")

        let empty = directory.appendingPathComponent("empty")
        _ = FileManager.default.createFile(
            atPath: empty.path, contents: Data("\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: ProxyError.self) { try ProxyToken.read(fromFile: empty.path) }
        let missing = directory.appendingPathComponent("missing").path
        do { _ = try ProxyToken.read(fromFile: missing) } catch {
            #expect(error.message.hasPrefix("--token-file \(missing): "), "\(error.message)")
        }
    }
}
