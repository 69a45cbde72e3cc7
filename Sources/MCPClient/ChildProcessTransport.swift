import Foundation
import Logging
import MCP
import Spawning
import Synchronization

/// The SDK's `Transport` over a server this console started (`RunningChild`): newline-delimited JSON-RPC on its
/// stdin and stdout, as the SDK's own `StdioTransport` speaks it, with what that one lacks for a program nobody
/// here wrote: a cap on one message (a server that never sends a newline would otherwise fill memory), an end
/// that is an error (the SDK's client loop spins on a stream that just finishes, and never fails its pending
/// calls), the end's cause kept for whoever waits on a call (`closure`), and the server's stderr read to the
/// log, its last lines kept to explain a crash.
public actor ChildProcessTransport: Transport {
    /// The SDK's logger, at `.error`: its warnings quote whole messages a server sent (up to the cap), once per
    /// message it cannot use, and those are the server's bytes, not news for the user.
    public nonisolated let logger: Logger
    /// Where the server's stderr lines go (at `.debug`).
    let serverLog: Logger
    let child: RunningChild
    let server: String
    let maximumMessageBytes: Int
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var readers: [Task<Void, Never>] = []
    /// Why the transport ended; nil while it runs.
    private nonisolated let ended = Mutex<MCPServerError?>(nil)
    nonisolated let stderrTail = StderrTail()
    /// Bytes of messages read and not yet taken by the client (`receive`).
    private nonisolated let queued = Mutex<Int>(0)

    public static let defaultMaximumMessageBytes = 32 << 20
    /// What may wait to be taken at the most: a server that floods the client with messages it cannot keep up
    /// with is stopped, never buffered without end.
    public static let maximumQueuedBytes = 64 << 20

    init(child: RunningChild, server: String, logger: Logger, maximumMessageBytes: Int = defaultMaximumMessageBytes) {
        self.child = child
        self.server = server
        self.logger = logger.forTheSDK
        self.serverLog = logger
        self.maximumMessageBytes = maximumMessageBytes
        (messages, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    /// Why it ended (the server exited, broke the size cap, was stopped), or nil while it runs.
    nonisolated var closure: MCPServerError? { ended.withLock { $0 } }

    public func connect() async throws {
        guard readers.isEmpty else { return }
        let output = child.output
        readers.append(Task { [weak self] in await self?.readMessages(output) })
        let errors = child.errors
        let tail = stderrTail
        let logger = serverLog
        let server = server
        readers.append(
            Task {
                var lines = LineSplitter(maximumLineBytes: StderrTail.maximumLineBytes, cutting: true)
                for await chunk in errors {
                    for line in lines.split(chunk) {
                        let text = String(decoding: line, as: UTF8.self)
                        tail.append(text)
                        logger.debug("\(text)", metadata: ["mcp.server": "\(server)", "mcp.stream": "stderr"])
                    }
                }
            })
    }

    public func disconnect() async {
        end(MCPServerError(.exited, server: server, "the MCP server \(server) was stopped"))
        await child.stop()
        readers.forEach { $0.cancel() }
    }

    public func send(_ data: Data) async throws {
        if let closure { throw closure }
        do {
            try await child.write(Array(data) + [UInt8(ascii: "\n")])
        } catch {
            throw closure
                ?? MCPServerError(.exited, server: server, "the MCP server \(server) stopped reading: \(error)")
        }
    }

    public nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        let iterator = IteratorBox(messages.makeAsyncIterator())
        return AsyncThrowingStream { [self] in
            guard let message = try await iterator.next() else { return nil }
            queued.withLock { $0 -= message.count }
            return message
        }
    }

    private func readMessages(_ output: AsyncStream<[UInt8]>) async {
        var lines = LineSplitter(maximumLineBytes: maximumMessageBytes)
        for await chunk in output {
            for line in lines.split(chunk) where !line.isEmpty {
                let waiting = queued.withLock { queued in
                    queued += line.count
                    return queued
                }
                continuation.yield(Data(line))
                if waiting > Self.maximumQueuedBytes { break }
            }
            if queued.withLock({ $0 }) > Self.maximumQueuedBytes {
                end(
                    MCPServerError(
                        .protocolViolation, server: server,
                        "the MCP server \(server) sent more than \(Self.maximumQueuedBytes >> 20) MiB faster than it could be read; it was stopped"
                    ))
                await child.stop(grace: .zero)
                return
            }
            if lines.overflowed {
                end(
                    MCPServerError(
                        .protocolViolation, server: server,
                        "the MCP server \(server) sent a message over \(maximumMessageBytes >> 20) MiB; it was stopped")
                )
                await child.stop(grace: .zero)
                return
            }
        }
        // End of its stdout: it exited, or closed it, which is the same to a client.
        let end = await child.stop(grace: .milliseconds(500))
        let how =
            switch end {
            case .exited(let code): "exited with status \(code)"
            case .signalled(let signal): "was ended by signal \(signal)"
            case .timedOut, .cancelled: "was stopped"
            }
        self.end(
            MCPServerError(.exited, server: server, "the MCP server \(server) \(how)", stderrTail: stderrTail.lines))
    }

    private func end(_ error: MCPServerError) {
        let first: Bool = ended.withLock { ended in
            guard ended == nil else { return false }
            ended = error
            return true
        }
        if first { continuation.finish(throwing: error) }
    }
}

extension Logger {
    /// This logger at `.error` only, for the SDK: its warnings quote whole messages a server sent.
    var forTheSDK: Logger {
        var quiet = self
        quiet.logLevel = .error
        return quiet
    }
}

/// The client's one iterator over the messages (the SDK's loop is the only one that takes them).
final class IteratorBox: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator

    init(_ iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator) { self.iterator = iterator }

    func next() async throws -> Data? { try await iterator.next() }
}

/// The last lines a server wrote to stderr, each cut to `maximumLineBytes`.
final class StderrTail: Sendable {
    static let maximumLines = 12
    static let maximumLineBytes = 400
    private let kept = Mutex<[String]>([])

    func append(_ line: String) {
        kept.withLock { lines in
            lines.append(line)
            if lines.count > Self.maximumLines { lines.removeFirst(lines.count - Self.maximumLines) }
        }
    }

    var lines: [String] { kept.withLock { $0 } }
}

/// Bytes split at LF (a CR before it dropped). A line longer than `maximumLineBytes` sets `overflowed`; it is
/// dropped (a message cut short is no message), or, with `cutting`, kept cut to that length, its rest skipped
/// to the next LF (stderr).
struct LineSplitter {
    let maximumLineBytes: Int
    let cutting: Bool
    private var pending: [UInt8] = []
    private var skipping = false
    private(set) var overflowed = false

    init(maximumLineBytes: Int, cutting: Bool = false) {
        self.maximumLineBytes = maximumLineBytes
        self.cutting = cutting
    }

    mutating func split(_ chunk: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if !skipping { pending += chunk[start..<newline] }
            if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
            if pending.count > maximumLineBytes { overflowed = true }
            if !skipping && (cutting || pending.count <= maximumLineBytes) {
                lines.append(Array(pending.prefix(maximumLineBytes)))
            }
            pending.removeAll(keepingCapacity: true)
            skipping = false
            start = chunk.index(after: newline)
        }
        if !skipping { pending += chunk[start...] }
        if pending.count > maximumLineBytes {
            overflowed = true
            if !skipping && cutting { lines.append(Array(pending.prefix(maximumLineBytes))) }
            pending.removeAll()
            skipping = true
        }
        return lines
    }
}
