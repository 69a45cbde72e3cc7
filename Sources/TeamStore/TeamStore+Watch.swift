#if TeamInspector
    import Foundation
    import Inspector
    import PostgresNIO

    extension TeamStore {
        /// A signal each time a push adds exchanges (PostgreSQL's LISTEN on the channel every push NOTIFYs), for
        /// `inspect watch`; the stream ends when the connection does, and stops listening when its reader goes.
        public func changes() -> AsyncStream<Void>? {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let connection = connection
            let listener = Task {
                defer { continuation.finish() }
                try await connection.listen(on: "openresponses_exchange") { notifications in
                    for try await _ in notifications { continuation.yield() }
                }
            }
            continuation.onTermination = { _ in listener.cancel() }
            return stream
        }
    }
#endif
