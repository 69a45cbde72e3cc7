import Foundation
import Synchronization

/// What a user of the proxy has spent: the store's own cost figures (the inspector's, from each exchange's
/// usage and its price table), summed over the user's exchanges started at or after `since`. The proxy asks
/// it before forwarding a request of a user with a daily budget; any store the proxy records into can answer.
public protocol SpendReading: Sendable {
    /// US dollars spent by `user` since `since`. Exchanges still in flight, and those of models the price
    /// table does not list, count for nothing.
    func spent(user: String, since: Date) async throws -> Double
}

/// The figures of a `SpendReading`, each kept for `freshness` per user and day: a burst of requests by one
/// user asks the store once, and requests that arrive while it is being asked wait for that one answer. A
/// failed answer is not kept.
final class SpendCache: Sendable {
    private struct Entry {
        var since: Date
        var asked: ContinuousClock.Instant
        var answer: Task<Double, any Error>
    }

    let reader: any SpendReading
    let freshness: Duration
    private let entries = Mutex<[String: Entry]>([:])

    init(reader: any SpendReading, freshness: Duration) {
        self.reader = reader
        self.freshness = freshness
    }

    func spent(user: String, since: Date) async throws -> Double {
        let now = ContinuousClock.now
        let answer = entries.withLock { entries -> Task<Double, any Error> in
            if let entry = entries[user], entry.since == since, entry.asked.duration(to: now) < freshness {
                return entry.answer
            }
            let reader = reader
            let answer = Task { try await reader.spent(user: user, since: since) }
            entries[user] = Entry(since: since, asked: now, answer: answer)
            return answer
        }
        do {
            return try await answer.value
        } catch {
            entries.withLock { entries in
                if entries[user]?.asked == now { entries[user] = nil }
            }
            throw error
        }
    }

    /// The start of the UTC day `date` is in: budgets are per UTC day.
    static func startOfUTCDay(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        return Date(timeIntervalSince1970: (seconds / 86_400).rounded(.down) * 86_400)
    }
}
