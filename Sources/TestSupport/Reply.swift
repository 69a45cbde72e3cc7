import Foundation

/// How the loopback server answers one request: a status, headers, and a script of body parts.
public struct Reply: Sendable {
    public enum Part: Sendable {
        case bytes([UInt8])
        case pause(Duration)
        /// Waits until the test opens the gate.
        case wait(Gate)
        /// Closes the connection where it stands (no final chunk): the client sees the body cut short.
        case dropConnection
    }

    public var status: Int
    public var headers: [(String, String)]
    public var parts: [Part]
    /// Nothing of the reply, not even its head, is written before the test opens this gate (`held(until:)`).
    public var headGate: Gate?

    public init(status: Int, headers: [(String, String)] = [], parts: [Part]) {
        self.status = status
        self.headers = headers
        self.parts = parts
    }

    /// This reply with nothing of it written, its head included, until the test opens `gate`: a request the
    /// server has not begun to answer.
    public func held(until gate: Gate) -> Reply {
        var reply = self
        reply.headGate = gate
        return reply
    }

    /// A JSON answer.
    public static func json(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
        Reply(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            parts: [.bytes(Array(body.utf8))])
    }

    /// A JSON answer read from a fixture file.
    public static func jsonFixture(_ name: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
        json(Fixtures.text(name), status: status, headers: headers)
    }

    /// An event stream: `frames` written one by one, with `pause` between them; with `holdingAfter`, an hour's
    /// pause after that many frames (the server stops it), for a test whose client must give up mid-stream
    /// however slowly it reads: a server that merely paces its frames can finish before a client held up by
    /// a busy machine has read two.
    /// With `dropAtEnd`, the connection is dropped after the last frame; with `droppingAt` too, only once the
    /// test opens that gate (when its client has read what it must keep: the client library discards bytes it
    /// had not handed over when the connection closes, and a busy machine can keep the client from reading).
    public static func sse(
        _ frames: [String], pause: Duration? = nil, headers: [(String, String)] = [], dropAtEnd: Bool = false,
        droppingAt gate: Gate? = nil, holdingAfter: Int? = nil
    ) -> Reply {
        var parts: [Part] = []
        for (index, frame) in frames.enumerated() {
            if index == holdingAfter { parts.append(.pause(.seconds(3600))) }
            if let pause, !parts.isEmpty { parts.append(.pause(pause)) }
            parts.append(.bytes(Array(frame.utf8)))
        }
        if dropAtEnd {
            if let gate { parts.append(.wait(gate)) }
            parts.append(.dropConnection)
        }
        return Reply(
            status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8")] + headers, parts: parts)
    }

    /// An event stream from a fixture file, one frame per event (split on blank lines).
    public static func sseFixture(
        _ name: String, pause: Duration? = nil, headers: [(String, String)] = [], dropAtEnd: Bool = false,
        holdingAfter: Int? = nil
    ) -> Reply {
        sse(Fixtures.frames(name), pause: pause, headers: headers, dropAtEnd: dropAtEnd, holdingAfter: holdingAfter)
    }
}
