import Foundation
import Library
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C while poppler runs: the tool is in a process group of its own (the terminal's interrupt reaches
/// the console, not it), the console's cancellation kills it at once, and the file it was reading is
/// neither an outcome nor stored. The tool here is a real process that never ends by itself: a `pdfinfo`
/// on `PATH` that writes its pid and sleeps.
@Suite("Interrupting an external tool")
struct ToolInterruptionTests {
    let files: LibraryFixtures
    let pidFile: URL
    let environment: [String: String]

    init() throws {
        files = try LibraryFixtures()
        pidFile = files.folder.appendingPathComponent("tool.pid")
        let script = try files.write("bin/pdfinfo", "#!/bin/sh\necho $$ > '\(pidFile.path)'\nexec sleep 300\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        environment = ["PATH": script.deletingLastPathComponent().path]
    }

    /// The tool's pid, once it has started.
    func startedTool() async throws -> pid_t {
        try await Deadline.poll("the stand-in pdfinfo to start") {
            (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap {
                pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
            } != nil
        }
        return try #require(
            pid_t(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Gone: killed and reaped, not a zombie nor still sleeping.
    func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 && errno == ESRCH }

    @Test func cancellingAReadKillsTheToolWhichRunsInAGroupOfItsOwn() async throws {
        defer { files.remove() }
        let pdf = try files.write("slow.pdf", "%PDF-1.4\n")
        let extractors = Extractors(environment: environment)
        let reading = Task { try await extractors.read(pdf, as: .pdf) }
        let pid = try await startedTool()
        // A failing run must not leave a five-minute sleep in a group no Ctrl-C reaches.
        defer { if !isGone(pid) { kill(-pid, SIGKILL) } }
        #expect(getpgid(pid) == pid, "the tool leads a process group of its own")
        #expect(getpgid(pid) != getpgrp())
        reading.cancel()
        // The tool sleeps for five minutes: only a kill ends the read before then.
        let failure = try await Deadline.run("the cancelled read to end") {
            await reading.result
        }
        guard case .failure(let error) = failure else {
            Issue.record("a cancelled read returned a document")
            return
        }
        #expect((error as? LibraryError)?.message.contains("interrupted: pdfinfo was stopped") == true, "\(error)")
        #expect(isGone(pid))
    }

    @Test func aFileInterruptedWhileItsToolRunsIsNotStoredNorCounted() async throws {
        defer { files.remove() }
        let first = try files.write("a.txt", "Otters build dens by the water.\n")
        let slow = try files.write("slow.pdf", "%PDF-1.4\n")
        let store = try files.openStore()
        let ingest = Ingest(
            store: store, extractors: Extractors(environment: environment), chunker: Chunker(size: 200, overlap: 30))
        let adding = Task { await ingest.add([first, slow]) { _ in } }
        let pid = try await startedTool()
        defer { if !isGone(pid) { kill(-pid, SIGKILL) } }
        adding.cancel()
        let outcomes = try await Deadline.run("the cancelled add to end") { await adding.value }
        #expect(outcomes == [.added(chunks: 1, pages: nil)])
        #expect(try await store.documents().map(\.path) == [first.path])
        #expect(isGone(pid))
    }

    @Test func aReadCancelledBeforeItsToolStartsStartsNone() async throws {
        defer { files.remove() }
        let pdf = try files.write("slow.pdf", "%PDF-1.4\n")
        let extractors = Extractors(environment: environment)
        let reading = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await extractors.read(pdf, as: .pdf)
        }
        let result = try await Deadline.run("the cancelled read to end") { await reading.result }
        guard case .failure(let error) = result else {
            Issue.record("a cancelled read returned a document")
            return
        }
        // Refused before spawning ("interrupted"), not spawned and stopped ("interrupted: pdfinfo was stopped").
        #expect((error as? LibraryError)?.message == "interrupted", "\(error)")
        #expect(!FileManager.default.fileExists(atPath: pidFile.path))
    }
}
