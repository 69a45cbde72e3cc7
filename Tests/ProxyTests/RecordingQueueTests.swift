import Foundation
import NIOCore
import Synchronization
import TestSupport
import Testing

@testable import Proxy

/// The queue between the proxy's forwarding and its recording: up to its limit in memory, the rest in a spool
/// file read back byte for byte and in order; without a usable spool the producer waits as before; a spooled
/// chunk is recorded only once the stream has ended or gone quiet.
@Suite("recording proxy: the queue to the recording and its spool")
struct RecordingQueueTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("or-spool-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A clock the test moves by hand.
    final class Clock: Sendable {
        let now = Mutex(Duration.zero)
        func read() -> Duration { now.withLock { $0 } }
        func set(_ value: Duration) { now.withLock { $0 = value } }
    }

    static func chunk(_ index: Int, size: Int) -> ByteBuffer {
        ByteBuffer(bytes: (0..<size).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) })
    }

    @Test func chunksPastTheLimitWaitInTheSpoolAndReadBackInOrder() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let queue = RecordingQueue(limit: 1000, spoolDirectory: directory.path) { clock.read() }
        let chunks = (0..<8).map { Self.chunk($0, size: 400) }
        for (index, chunk) in chunks.enumerated() { await queue.enqueue(chunk, at: .milliseconds(index)) }
        queue.finish(nil, at: .milliseconds(9))

        var received: [ByteBuffer] = []
        var positions: [Int64] = []
        var offsets: [Duration] = []
        for await item in queue.items {
            switch item {
            case .chunk(let chunk, let offset):
                received.append(chunk)
                offsets.append(offset)
            case .spooled(let position, let count, let offset):
                positions.append(position)
                received.append(try queue.readSpooled(at: position, count: count))
                offsets.append(offset)
            case .end(let error, let offset):
                #expect(error == nil && offset == .milliseconds(9))
            }
        }
        #expect(received == chunks, "every chunk, byte for byte, in the order it came")
        #expect(offsets == (0..<8).map { .milliseconds($0) }, "each with the time it arrived")
        #expect(
            positions == [0, 400, 800, 1200, 1600, 2000], "two chunks in memory (1000 bytes of room), six in the spool")
        #expect(queue.spoolFailure == nil)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the spool has no name on disk"
        )
    }

    @Test func theSpoolStartsAgainOnceEverythingWrittenWasRead() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = RecordingQueue(limit: 100, spoolDirectory: directory.path) { .zero }
        var iterator = queue.items.makeAsyncIterator()
        await queue.enqueue(Self.chunk(0, size: 100), at: .zero)  // fills memory
        await queue.enqueue(Self.chunk(1, size: 300), at: .zero)
        await queue.enqueue(Self.chunk(2, size: 300), at: .zero)
        var positions: [Int64] = []
        for _ in 0..<3 {
            switch await iterator.next() {
            case .spooled(let position, let count, _)?:
                positions.append(position)
                _ = try queue.readSpooled(at: position, count: count)
            default: break
            }
        }
        await queue.enqueue(Self.chunk(3, size: 300), at: .zero)
        guard case .spooled(let position, let count, _)? = await iterator.next() else {
            Issue.record("memory is still full: the fourth chunk goes to the spool")
            return
        }
        #expect(positions == [0, 300])
        #expect(position == 0, "read up, the spool is written from its start again")
        #expect(try queue.readSpooled(at: position, count: count) == Self.chunk(3, size: 300))
    }

    @Test func withoutAUsableSpoolTheProducerWaitsForTheRecording() async throws {
        let missing = directory.appendingPathComponent("no/such/directory").path
        let queue = RecordingQueue(limit: 1000, spoolDirectory: missing) { .zero }
        let produced = Mutex(0)
        let producer = Task {
            for index in 0..<6 {
                await queue.enqueue(Self.chunk(index, size: 400), at: .zero)
                produced.withLock { $0 += 1 }
            }
            queue.finish(nil, at: .zero)
        }
        // Unread, memory holds 1000 bytes: the third chunk passes the limit and its producer waits there.
        try await Deadline.poll("two chunks handed over") { produced.withLock { $0 } >= 2 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(produced.withLock { $0 } == 2, "the producer waits once memory is over its limit")
        #expect(queue.spoolFailure?.description.contains(missing) == true, "\(String(describing: queue.spoolFailure))")
        var count = 0
        for await item in queue.items {
            if case .chunk(let chunk, _) = item {
                #expect(chunk == Self.chunk(count, size: 400))
                count += 1
                queue.consumed(chunk.readableBytes)
            }
        }
        await producer.value
        #expect(count == 6, "every chunk, in memory")
        try? FileManager.default.removeItem(at: directory)
    }

    /// The spool file never grows past its limit, even while part of it has been read (what is waiting
    /// would fit; the file would not): the chunk goes to memory and its producer waits, as without a spool.
    @Test func theSpoolFileNeverPassesItsLimit() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = RecordingQueue(limit: 100, spoolDirectory: directory.path, spoolLimit: 700) { .zero }
        var items = queue.items.makeAsyncIterator()
        await queue.enqueue(Self.chunk(0, size: 300), at: .zero)  // the spool's bytes 0..<300
        await queue.enqueue(Self.chunk(1, size: 300), at: .zero)  // 300..<600
        guard case .spooled(let first, let count, _)? = await items.next() else {
            Issue.record("the first chunk is spooled")
            return
        }
        _ = try queue.readSpooled(at: first, count: count)
        // 300 bytes wait in the spool; a third chunk would end the file at 900.
        let third = Task { await queue.enqueue(Self.chunk(2, size: 300), at: .zero) }
        try await Deadline.poll("the third chunk handed over") { queue.pendingInMemory > 0 || queue.spooledTotal > 600 }
        #expect(
            queue.spooledTotal == 600 && queue.pendingInMemory == 300,
            "the third chunk waits in memory, not past the file's limit")
        guard case .spooled(let second, let secondCount, _)? = await items.next() else {
            Issue.record("the second chunk is spooled")
            return
        }
        #expect(try queue.readSpooled(at: second, count: secondCount) == Self.chunk(1, size: 300))
        guard case .chunk(let chunk, _)? = await items.next() else {
            Issue.record("the third chunk comes from memory")
            return
        }
        #expect(chunk == Self.chunk(2, size: 300))
        queue.consumed(chunk.readableBytes)
        await third.value
    }

    @Test func aSpooledChunkWaitsWhileTheStreamGoesOnAndNotAfterItEnds() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = Clock()
        let queue = RecordingQueue(limit: 10, spoolDirectory: directory.path) { clock.read() }
        await queue.enqueue(Self.chunk(0, size: 20), at: .milliseconds(100))
        clock.set(.milliseconds(110))  // 10 ms after the last chunk: the stream is going on
        let waited = Task { await queue.waitForLull() }
        try await Task.sleep(for: .milliseconds(300))
        // Still waiting: its clock says the stream went quiet only 10 ms ago.
        let finishedEarly = Mutex(false)
        let probe = Task {
            await waited.value
            finishedEarly.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!finishedEarly.withLock { $0 }, "a stream still arriving keeps the spool's chunks waiting")
        queue.finish(nil, at: .milliseconds(120))
        await probe.value
        #expect(finishedEarly.withLock { $0 })

        // A stream quiet for the lull lets the recording read the spool while it is still open.
        let quiet = RecordingQueue(limit: 10, spoolDirectory: directory.path) { clock.read() }
        await quiet.enqueue(Self.chunk(1, size: 20), at: .milliseconds(100))
        clock.set(.milliseconds(100) + RecordingQueue.lull)
        await quiet.waitForLull()
    }
}
