#if TeamInspector
    import Foundation
    import Synchronization
    import TestSupport
    import Testing

    @testable import TeamStore

    /// A team store's deadlines return at their time whatever the work does, and what the work gives after (a
    /// connection made late) is handed over to be closed, never dropped open: PostgresNIO asserts that a
    /// connection is closed before it goes, and a debug build (the tests', CI's) stops the whole process there.
    @Suite(.enabled(if: TeamCluster.enabled))
    struct TeamDeadlineTests {
        @Test func aValueThatComesAfterTheDeadlineIsHandedOver() async throws {
            let address = try TeamStoreAddress(parsing: "postgres://u@127.0.0.1:1/x", origin: "test")
            let late = Mutex<[Int]>([])
            let finished = Atomic<Bool>(false)
            // A wait that nothing but `release` ends: cancellation does not (as a query on a dropped connection).
            let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
            // Were the deadline to wait for its work, this ends the wait (and the test fails) instead of hanging.
            let expire: @Sendable () async -> Void = {
                try? await Task.sleep(for: .seconds(30))
                release.withLock {
                    $0?.resume()
                    $0 = nil
                }
            }
            let safety = Task(operation: expire)
            defer { safety.cancel() }
            await #expect(throws: TeamStoreError.self) {
                let stuck: @Sendable () async throws -> Int = {
                    await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                    finished.store(true, ordering: .sequentiallyConsistent)
                    return 7
                }
                try await TeamStore.deadline(
                    .milliseconds(50), address: address, onLate: { value in late.withLock { $0.append(value) } },
                    stuck)
            }
            let workEnded = finished.load(ordering: .sequentiallyConsistent)
            #expect(!workEnded, "it returned before the work ended")
            try await Deadline.poll("the work waiting") { release.withLock { $0 != nil } }
            release.withLock {
                $0?.resume()
                $0 = nil
            }
            try await Deadline.poll("the late value handed over") { late.withLock { $0 == [7] } }
        }

        /// Here PostgresNIO's connect heeds the cancellation (it passes without `onLate` too); what it shows is that
        /// an open that runs out of time leaves nothing open on the server.
        @Test func anOpenPastItsDeadlineLeavesNoConnection() async throws {
            let address = try TeamCluster.freshDatabase()
            let url = TeamCluster.url(of: address)
            for _ in 0..<5 {
                // Too little time to connect: the open fails, and a connection made anyway is closed.
                await #expect(throws: TeamStoreError.self) {
                    _ = try await TeamStore.open(address, patience: .milliseconds(1))
                }
            }
            try await Deadline.poll("no connection of ours left on the database") {
                try InspectorEngine.psql(
                    url,
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).hasPrefix("0")
            }
        }
    }
#endif
