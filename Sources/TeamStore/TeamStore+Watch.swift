#if TeamInspector
    import Foundation
    import Inspector
    import PostgresNIO

    extension TeamStore {
        /// The ids each push adds, as it commits (PostgreSQL's LISTEN on the channel every push NOTIFYs with
        /// them), for `inspect watch`: pushes from several machines commit in their own order, so an id can come
        /// after a larger one. The stream ends when the connection does, and stops listening when its reader
        /// goes. The first element, empty, comes once the connection listens. A payload that is not a list of ids
        /// (another program's NOTIFY) is an empty list: look anyway.
        public func changes() -> AsyncStream<[Int64]>? {
            let (stream, continuation) = AsyncStream.makeStream(
                of: [Int64].self, bufferingPolicy: .bufferingNewest(10_000))
            let connection = connection
            let listener = Task {
                defer { continuation.finish() }
                try await connection.listen(on: "openresponses_exchange") { notifications in
                    continuation.yield([])  // listening: what is pushed from now on is heard
                    for try await notification in notifications {
                        continuation.yield(Self.ids(notifiedIn: notification.payload))
                    }
                }
            }
            continuation.onTermination = { _ in listener.cancel() }
            return stream
        }

        /// The ids a push's notification names (`12,13,15`), at most `notifiedIDs` of them.
        static func ids(notifiedIn payload: String) -> [Int64] {
            payload.split(separator: ",", maxSplits: notifiedIDs, omittingEmptySubsequences: true).prefix(notifiedIDs)
                .compactMap { Int64($0) }
        }

        /// The most ids one notification names (PostgreSQL takes payloads under 8,000 bytes).
        static let notifiedIDs = 400

        /// Notifies the ids a push added, in payloads of at most `notifiedIDs` ids each.
        static func notify(added ids: [Int64], connection: PostgresConnection, logger: Logger) async throws {
            var start = 0
            repeat {
                let part = ids[start..<min(start + notifiedIDs, ids.count)]
                let payload = part.map(String.init).joined(separator: ",")
                try await connection.query("SELECT pg_notify('openresponses_exchange', \(payload))", logger: logger)
                start += notifiedIDs
            } while start < ids.count
        }
    }
#endif
