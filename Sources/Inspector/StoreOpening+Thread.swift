import CSQLiteSupport
import Foundation

extension StoreOpening {
    /// Runs `body` on a thread of its own, started on another core than the caller's so that it runs at
    /// once beside the caller (`openresponses_start_store_thread`); on Foundation's `Thread` if that fails.
    static func detach(_ body: @escaping @Sendable () -> Void) {
        detach(placement: { _ in body() })
    }

    /// `detach`, telling `body` where its thread started: the caller's core it was kept from and the core it
    /// started on (nil when unknown). Only the tests look at them.
    static func detach(placement body: @escaping @Sendable ((elsewhereThan: Int?, startedOn: Int?)) -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = openresponses_start_store_thread(
            { raw, elsewhereThan, startedOn in
                guard let raw else { return }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
                    .run((elsewhereThan >= 0 ? Int(elsewhereThan) : nil, startedOn >= 0 ? Int(startedOn) : nil))
            }, box)
        if status != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            Thread.detachNewThread { body((nil, nil)) }
        }
    }

    /// The closure a thread runs, passed to C as an object.
    private final class Body: Sendable {
        let run: @Sendable ((elsewhereThan: Int?, startedOn: Int?)) -> Void
        init(_ run: @escaping @Sendable ((elsewhereThan: Int?, startedOn: Int?)) -> Void) { self.run = run }
    }
}
