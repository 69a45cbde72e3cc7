import NIOCore
import ResponsesAPI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An event stream's chunks on their way from the forwarding loop to the recording, which runs beside it
/// (decoding the events and handing them to the inspector). The client never waits for the decoding or the
/// store: up to `limit` bytes wait in memory, more wait in a `Spool` on disk (a file of `spoolLimit` at most), so a
/// stream faster than the recorder reaches the client at the network's pace and the recording catches up
/// after it, with every event and the time it arrived. Only when the spool is full or cannot be written does
/// the client wait, while more than `limit` bytes are in memory, as it did before there was a spool.
/// Each chunk keeps the time it arrived, so the recorded offsets are the network's, not the recorder's.
final class RecordingQueue: Sendable {
    enum Item: Sendable {
        /// A chunk and when it arrived.
        case chunk(ByteBuffer, Duration)
        /// A chunk waiting in the spool: where, how long, and when it arrived.
        case spooled(position: Int64, count: Int, Duration)
        /// The stream's end: nil when it ended normally, else why not (the client left, the upstream broke
        /// off), and when.
        case end(ResponsesAPIError?, Duration)
    }

    private struct State {
        /// Bytes waiting in memory.
        var pending = 0
        var waiter: CheckedContinuation<Void, Never>?
        var spool: Spool?
        /// Bytes waiting in the spool, and where the next chunk goes.
        var spooled = 0
        var spoolEnd: Int64 = 0
        /// Why the spool is not used (it could not be made or written), once that happened.
        var spoolFailure: SpoolError?
        /// Every byte that went through the spool (for the log).
        var spooledTotal = 0
        /// When the last chunk arrived, and whether the stream has ended.
        var lastArrival: Duration = .zero
        var finished = false
    }

    let limit: Int
    let spoolDirectory: String?
    let spoolLimit: Int
    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let state = Mutex(State())

    /// `spoolDirectory` nil keeps everything in memory (the client waits past `limit`).
    /// The stream's clock: the time since it began, in the frame of the offsets given to `enqueue`.
    let elapsed: @Sendable () -> Duration

    init(
        limit: Int, spoolDirectory: String? = nil, spoolLimit: Int = 1 << 30,
        elapsed: @escaping @Sendable () -> Duration
    ) {
        self.limit = limit
        self.elapsed = elapsed
        self.spoolDirectory = spoolDirectory
        self.spoolLimit = spoolLimit
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Why the spool stopped being used, if it did (for the log).
    var spoolFailure: SpoolError? { state.withLock { $0.spoolFailure } }

    /// How many bytes went through the spool.
    var spooledTotal: Int { state.withLock { $0.spooledTotal } }

    /// How many bytes wait in memory.
    var pendingInMemory: Int { state.withLock { $0.pending } }

    private enum Route {
        case memory
        case spool(Int64)
        case memoryThenWait
    }

    /// Hands a chunk over: to memory while there is room, else to the spool; waits only while more than
    /// `limit` bytes are in memory because the spool cannot take the chunk. One producer calls this.
    func enqueue(_ chunk: ByteBuffer, at offset: Duration) async {
        let size = chunk.readableBytes
        let route = state.withLock { state -> Route in
            state.lastArrival = offset
            if state.pending + size <= limit {
                state.pending += size
                return .memory
            }
            if spoolDirectory != nil, state.spoolFailure == nil {
                if state.spooled == 0 { state.spoolEnd = 0 }  // everything written was read: start again
                // The file never passes `spoolLimit`: past it the producer waits for the recording.
                if state.spoolEnd + Int64(size) <= Int64(spoolLimit) {
                    let position = state.spoolEnd
                    state.spoolEnd += Int64(size)
                    state.spooled += size
                    state.spooledTotal += size
                    return .spool(position)
                }
            }
            state.pending += size
            return .memoryThenWait
        }
        switch route {
        case .memory:
            continuation.yield(.chunk(chunk, offset))
        case .spool(let position):
            do {
                try spool().write(chunk, at: position)
                continuation.yield(.spooled(position: position, count: size, offset))
            } catch {
                state.withLock { state in
                    state.spoolFailure = error
                    state.spooled -= size
                    state.spooledTotal -= size
                    state.pending += size
                }
                await enqueueWaiting(chunk, at: offset)
            }
        case .memoryThenWait:
            await enqueueWaiting(chunk, at: offset)
        }
    }

    /// The spool, made when first needed (by the one producer).
    private func spool() throws(SpoolError) -> Spool {
        if let spool = state.withLock({ $0.spool }) { return spool }
        let spool = try Spool(directory: spoolDirectory ?? "/tmp")
        state.withLock { $0.spool = spool }
        return spool
    }

    /// A chunk already counted in `pending`: queued, then the producer waits while memory is over `limit`.
    private func enqueueWaiting(_ chunk: ByteBuffer, at offset: Duration) async {
        continuation.yield(.chunk(chunk, offset))
        guard state.withLock({ $0.pending > limit }) else { return }
        await withCheckedContinuation { waiter in
            let resumeNow = state.withLock { state -> Bool in
                guard state.pending > limit else { return true }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
    }

    /// How long the stream must have been quiet before the recording reads the spool while it goes on.
    static let lull: Duration = .milliseconds(50)

    /// Waits, before a spooled chunk is recorded, while the stream is still arriving faster than it is
    /// recorded: until it has ended or been quiet for `lull`. Recording beside it would take the processor
    /// from the forwarding (on a machine of two cores, the client, the upstream and the proxy already use
    /// both); the chunks waiting meanwhile go to the spool, not to memory.
    func waitForLull() async {
        while true {
            let (finished, last) = state.withLock { ($0.finished, $0.lastArrival) }
            let quiet = elapsed() - last
            if finished || quiet >= Self.lull { return }
            do { try await Task.sleep(for: Self.lull - quiet) } catch { return }
        }
    }

    /// A spooled chunk's bytes, read back; its room in the spool is free again.
    func readSpooled(at position: Int64, count: Int) throws(SpoolError) -> ByteBuffer {
        defer { state.withLock { $0.spooled -= count } }
        guard let spool = state.withLock({ $0.spool }) else {
            throw SpoolError(operation: "read \(count) bytes back from a spool that was never made", errno: EIO)
        }
        return try spool.read(at: position, count: count)
    }

    /// The recording took `size` bytes from memory: a waiting producer goes on once half the room is free.
    func consumed(_ size: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.pending -= size
            guard state.pending <= limit / 2 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// No more chunks: the recording ends after those already queued, with `error` as the stream's end.
    func finish(_ error: ResponsesAPIError?, at offset: Duration) {
        state.withLock { $0.finished = true }
        continuation.yield(.end(error, offset))
        continuation.finish()
    }
}
