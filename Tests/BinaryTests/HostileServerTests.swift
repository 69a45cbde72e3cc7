import Foundation
import TestSupport
import Testing

/// Issue 43 against the built binary: a loopback server that answers as an attacker would
/// (`HostileServer`), and what each of its answers may no longer do. Each test failed before the fix. The
/// findings on a terminal (tmux) are in TerminalTests.
@Suite("a hostile server (binary)")
struct HostileServerTests {
    /// A harness on the hostile server once `ask QUESTION` has run through it and succeeded, the server
    /// stopped; the caller removes the harness.
    static func askedOnce(_ question: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> ConsoleHarness
    {
        let harness = try await HostileServer.harness()
        let asked: Subprocess.Result
        do { asked = try await harness.run(["ask", question]) } catch {
            harness.remove()
            throw error
        }
        await harness.server.stop()
        #expect(asked.status == 0, "\(asked.stderr)", sourceLocation: sourceLocation)
        return harness
    }

    /// Finding 6: `files download ID` saved where the server's file name said (`../../x.sh`, an absolute
    /// path), replacing what was there. Now: the last component made safe, in the current folder, never
    /// over an existing file without --force; -o is the user's own choice.
    @Test func aDownloadsNameIsNeverAPathNorReplacesAFile() async throws {
        let absolute = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hostile-abs-\(UUID().uuidString).sh")
        let harness = try await HostileServer.harness(fileNamed: absolute.path)
        defer { harness.remove() }
        let work = harness.home.appendingPathComponent("one/two/work", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        func download(_ arguments: [String]) async throws -> Subprocess.Result {
            try await Subprocess.run(
                "/bin/sh",
                ["-c", "cd '\(work.path)' && exec \"$0\" \"$@\"", Subprocess.openresponsesBinary] + arguments,
                environment: harness.variables)
        }
        let first = try await download(["files", "download", "file-up"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try String(contentsOf: work.appendingPathComponent("x.sh"), encoding: .utf8) == HostileServer.payload)
        #expect(!FileManager.default.fileExists(atPath: harness.home.appendingPathComponent("one/x.sh").path))
        #expect(
            first.stdout.contains("Saved file-up to \(work.appendingPathComponent("x.sh").path)"), "\(first.stdout)")

        try "mine".write(to: work.appendingPathComponent("x.sh"), atomically: true, encoding: .utf8)
        let again = try await download(["files", "download", "file-up"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("x.sh already exists: give --force to replace it, or -o PATH"), "\(again.stderr)")
        #expect(try String(contentsOf: work.appendingPathComponent("x.sh"), encoding: .utf8) == "mine")
        let forced = try await download(["files", "download", "file-up", "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: work.appendingPathComponent("x.sh"), encoding: .utf8) == HostileServer.payload)

        let named = try await download(["files", "download", "file-abs"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!FileManager.default.fileExists(atPath: absolute.path))
        #expect(
            FileManager.default.fileExists(
                atPath: work.appendingPathComponent(String(absolute.lastPathComponent.dropFirst(0))).path)
                || HostileServer.files(under: work).contains { $0.hasSuffix(absolute.lastPathComponent) },
            "\(HostileServer.files(under: work))")
        await harness.server.stop()
    }

    /// Finding 5: a request body holding `'` + U+0301 then `; touch X #` ran `touch X` when the curl dump
    /// was pasted into a shell. Now the dump, run by bash (its curl reaching the loopback server), creates
    /// nothing.
    @Test func aCurlDumpRunsNothingButCurl() async throws {
        let harness = try await HostileServer.harness()
        defer { harness.remove() }
        let work = harness.home.appendingPathComponent("paste", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let asked = try await harness.run(["ask", "hello '\u{0301}; touch PWNED #"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let dump = try await harness.run(["inspect", "dump", "1", "--format", "curl"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let pasted = try await Subprocess.run(
            "/bin/bash", ["-c", "cd '\(work.path)' && " + dump.stdout],
            environment: harness.variables.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        await harness.server.stop()
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(HostileServer.files(under: work).isEmpty, "\(HostileServer.files(under: work))")
        #expect(harness.server.requests.count == 2, "the pasted curl sent the request again")
        #expect(
            harness.server.requests.last.map { String(decoding: $0.body, as: UTF8.self) }
                == harness.server.requests.first.map { String(decoding: $0.body, as: UTF8.self) })
    }

    /// Finding 4: a model name holding `"` + U+0301 became an `ontoggle` attribute in the HTML report.
    @Test func theReportEscapesAModelNameByScalar() async throws {
        let harness = try await Self.askedOnce("hello")
        defer { harness.remove() }
        let report = harness.home.appendingPathComponent("report.html")
        let made = try await harness.run(["inspect", "report", "-o", report.path])
        #expect(made.status == 0, "\(made.stderr)")
        let html = try String(contentsOf: report, encoding: .utf8)
        #expect(html.contains("gpt&quot;\u{0301} open ontoggle=alert(1) x="))
        #expect(
            !html.unicodeScalars.split(separator: "<").contains { tag in
                String(String.UnicodeScalarView(tag)).contains("\"\u{0301} open")
            })
    }

    /// Finding 9: a search of a quote and a combining mark failed with "unterminated string".
    @Test func aSearchOfAQuoteAndACombiningMarkIsJustText() async throws {
        let harness = try await Self.askedOnce("hello \"\u{0301}")
        defer { harness.remove() }
        for arguments in [
            ["inspect", "list", "--search", "\"\u{0301}"], ["history", "search", "\"\u{0301}"],
            ["library", "search", "\"\u{0301} x"],
        ] {
            let result = try await harness.run(arguments)
            // history search exits 1 when nothing matches (as grep does); an error is what must not happen.
            #expect(
                result.status == 0
                    || (arguments[0] == "history" && result.stdout.hasPrefix("No conversation mentions")),
                "\(arguments): \(result.stdout) \(result.stderr)")
            #expect(
                !result.stderr.contains("SQLite") && !result.stderr.contains("error"), "\(arguments): \(result.stderr)")
        }
    }
}
