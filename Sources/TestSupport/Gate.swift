import Synchronization

/// A point a loopback server's reply waits at until the test opens it (`Reply.Part.wait`): for a test whose
/// client must have read some events before the server goes on (drops the connection, say), however long a
/// busy machine keeps the client from reading. A gate never opened lets the reply go on after two minutes,
/// so a test that forgets it fails instead of hanging.
public final class Gate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    public init() {}

    /// Lets every waiter, present and future, through.
    public func open() { isOpen.store(true, ordering: .releasing) }

    /// Returns once the gate is open, or after `limit`.
    public func wait(atMost limit: Duration = .seconds(120)) async {
        let start = ContinuousClock.now
        while !isOpen.load(ordering: .acquiring), ContinuousClock.now - start < limit {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { return }  // cancelled: the server stops
        }
    }
}
