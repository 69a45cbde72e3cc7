import Foundation
import Spawning
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child that keeps running while the parent talks to it (an MCP server), and what every child gets of the
/// parent's descriptors: stdin, stdout and stderr, nothing more.
@Suite struct RunningChildTests {
    let path = ["PATH": "/usr/bin:/bin"]

    /// The output of `stream` until it ends, as text.
    func collect(_ stream: AsyncStream<[UInt8]>) async -> String {
        var bytes: [UInt8] = []
        for await chunk in stream { bytes += chunk }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aChildInheritsNoDescriptorButItsStandardOnes() throws {
        // A pipe made the way some libraries make theirs: without close-on-exec.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        let outcome = try ChildProcess("/bin/sh", ["-c", "ls /proc/self/fd"], environment: path).runBlocking()
        let listed = Set(
            String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) })
        // 3 is ls's own handle on the folder it lists.
        #expect(listed.isSubset(of: [0, 1, 2, 3]), "the child had \(listed.sorted()); the pipe was \(fds)")
        #expect(!listed.contains(fds[0]) && !listed.contains(fds[1]))
    }

    @Test func itIsWrittenToAndReadFromWhileItRuns() async throws {
        let child = try RunningChild(ChildProcess("/bin/cat", [], environment: path))
        try await child.write(Array("hello\n".utf8))
        var iterator = child.output.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first.map { String(decoding: $0, as: UTF8.self) } == "hello\n")
        #expect(await child.stop() == .exited(0), "cat ends at the end of its input")
    }

    @Test func aChildThatIgnoresItsEndOfInputIsKilledAfterTheGraceWithItsGroup() async throws {
        let child = try RunningChild(
            ChildProcess("/bin/sh", ["-c", "trap '' TERM; sleep 300 & sleep 300"], environment: path))
        let began = ContinuousClock.now
        #expect(await child.stop(grace: .milliseconds(200)) == .signalled(SIGKILL))
        // Generous: a loaded machine can be slow to schedule; the child would take 300 s.
        #expect(ContinuousClock.now - began < .seconds(60))
        // The helper it started in its group went with it: the pipes close, so its output ends.
        #expect(await collect(child.output) == "")
    }

    @Test func whenTheChildEndsTheHelpersHoldingItsOutputEndWithIt() async throws {
        let child = try RunningChild(
            ChildProcess("/bin/sh", ["-c", "sleep 300 & echo started; exit 1"], environment: path))
        let began = ContinuousClock.now
        #expect(await collect(child.output) == "started\n")
        // Generous: a loaded machine can be slow to run the watching thread; the helper would hold it 300 s.
        #expect(ContinuousClock.now - began < .seconds(60), "the output ended only when the helper did")
        #expect(await child.stop() == .exited(1))
    }

    @Test func writingToAChildThatHasEndedFailsWithoutKillingThisProcess() async throws {
        let child = try RunningChild(ChildProcess("/bin/sh", ["-c", "exit 4"], environment: path))
        _ = await collect(child.output)
        #expect(await child.stop() == .exited(4))
        await #expect(throws: ChildProcessError.self) { try await child.write(Array("late\n".utf8)) }
    }
}
