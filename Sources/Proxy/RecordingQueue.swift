import NIOCore
import ResponsesAPI
import Synchronization

/// An event stream's chunks on their way from the forwarding loop to the recording, which runs beside it
/// (decoding the events and handing them to the inspector): the client never waits for the decoding or
/// the store unless more than `limit` bytes are waiting, which bounds the memory a fast stream can take.
/// Each chunk keeps the time it arrived, so the recorded offsets are the network's, not the recorder's.
final class RecordingQueue: Sendable {
    enum Item: Sendable {
        /// A chunk and when it arrived.
        case chunk(ByteBuffer, Duration)
        /// The stream's end: nil when it ended normally, else why not (the client left, the upstream broke
        /// off), and when.
        case end(ResponsesAPIError?, Duration)
    }

    private struct State {
        var pending = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    let limit: Int
    let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
        (items, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// Hands a chunk over; waits only while more than `limit` bytes are waiting to be recorded.
    func enqueue(_ chunk: ByteBuffer, at offset: Duration) async {
        let size = chunk.readableBytes
        let full = state.withLock { state -> Bool in
            state.pending += size
            return state.pending > limit
        }
        continuation.yield(.chunk(chunk, offset))
        guard full else { return }
        await withCheckedContinuation { waiter in
            let resumeNow = state.withLock { state -> Bool in
                guard state.pending > limit else { return true }
                state.waiter = waiter
                return false
            }
            if resumeNow { waiter.resume() }
        }
    }

    /// The recording took `size` bytes: a waiting producer goes on once half the room is free again.
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
        continuation.yield(.end(error, offset))
        continuation.finish()
    }
}
