#if TeamInspector
    import Foundation
    import Inspector
    import Logging

    /// Sends a local store's finished exchanges to a team store: once for `inspect push` and at the end of a
    /// command, continuously for the proxy. The local store is the spool: an exchange is written there first
    /// (the answer never waits for the network), and leaves it only when the team store has it. A database
    /// that is down costs nothing but the wait for it: the exchanges stay and go with a later push.
    public struct TeamShipper: Sendable {
        public let local: InspectorStore
        public let address: TeamStoreAddress
        public let patience: Duration

        public init(local: InspectorStore, address: TeamStoreAddress, patience: Duration = .seconds(10)) {
            self.local = local
            self.address = address
            self.patience = patience
        }

        /// What a push did.
        public struct Report: Sendable {
            public var added = 0
            public var alreadyThere = 0
            /// Exchanges the database refused (a value it cannot hold): their local id and its reason.
            public var refused: [(id: Int64, reason: String)] = []
            /// Finished exchanges still waiting (none after a push that ran to its end).
            public var waiting = 0
            /// The identity the local store took when the team store showed that another store has its own (a
            /// copied data directory); nil when it kept it.
            public var newIdentity: String?
            /// No exchange below this id waits (`InspectorStore.pushFloor`): where the next push may start.
            public var floor: Int64 = 0
        }

        /// Pushes every finished exchange not yet in the team store, a batch at a time, until none is left or
        /// `deadline` has passed. `progress` hears the count sent so far after each batch.
        public func push(
            until deadline: ContinuousClock.Instant? = nil, progress: (@Sendable (Int) -> Void)? = nil
        ) async throws -> Report {
            try await TeamStore.with(address, patience: patience) { team in
                try await push(to: team, until: deadline, progress: progress)
            }
        }

        /// The same on a connection the caller holds (`inspect list` pushes, then reads on it). Looks at the
        /// exchanges from `floor` on (none below it waits); with `countingWaiting`, counts the ones left at the end.
        public func push(
            to team: TeamStore, until deadline: ContinuousClock.Instant?, progress: (@Sendable (Int) -> Void)?,
            from floor: Int64 = 0, countingWaiting: Bool = true
        ) async throws -> Report {
            var report = Report()
            report.floor = floor
            while deadline.map({ ContinuousClock.now < $0 }) ?? true {
                // Read for each batch: another process sharing the store may have taken a new one.
                let origin = try await local.identity()
                report.floor = try await local.pushFloor(destination: address.destination, from: report.floor)
                let batch = try await local.exchangesToPush(destination: address.destination, from: report.floor)
                if batch.isEmpty { break }
                let outcome: TeamStore.PushOutcome
                do {
                    outcome = try await Self.pushOrSplit(batch, origin: origin, to: team)
                } catch {
                    // Another store has this identity: a new one, once, and the batch again under it.
                    guard error.sharedIdentity, report.newIdentity == nil else { throw error }
                    report.newIdentity = try await local.takeNewIdentity(replacing: origin)
                    continue
                }
                try await local.notePushed(outcome.added + outcome.alreadyThere, destination: address.destination)
                for (id, reason) in outcome.refused {
                    try await local.notePushRefused(id, destination: address.destination, reason: reason)
                }
                report.added += outcome.added.count
                report.alreadyThere += outcome.alreadyThere.count
                report.refused += outcome.refused
                progress?(report.added + report.alreadyThere)
            }
            if countingWaiting {
                report.waiting = try await local.pushBacklog(destination: address.destination, from: report.floor)
                    .waiting
            }
            return report
        }

        /// `batch` in one transaction; when the database refuses it for a reason of an exchange's (not its
        /// reachability: a message too large, a statement timeout), each exchange alone, the one it refuses noted
        /// as refused, so that none holds back the rest.
        static func pushOrSplit(_ batch: [PushedExchange], origin: String, to team: TeamStore)
            async throws(TeamStoreError) -> TeamStore.PushOutcome
        {
            do {
                return try await team.push(batch, origin: origin)
            } catch {
                if error.unreachable || error.sharedIdentity { throw error }
            }
            var outcome = TeamStore.PushOutcome()
            for exchange in batch {
                do {
                    let one: TeamStore.PushOutcome = try await team.push([exchange], origin: origin)
                    outcome.added.append(contentsOf: one.added)
                    outcome.alreadyThere.append(contentsOf: one.alreadyThere)
                    outcome.refused.append(contentsOf: one.refused)
                } catch {
                    if error.unreachable || error.sharedIdentity { throw error }
                    let id: Int64 = exchange.detail.summary.id
                    outcome.refused.append((id: id, reason: error.message))
                }
            }
            return outcome
        }

        /// What `follow` tells its owner: the team store went out of reach (with the error and how many exchanges
        /// wait), or came back (with how many were sent then).
        public enum Notice: Sendable {
            case unreachable(TeamStoreError, waiting: Int)
            case reachable(sent: Int)
            case refused([(id: Int64, reason: String)])
            /// The local store took a new identity (`Report.newIdentity`).
            case newIdentity(String)
        }

        /// Pushes every `interval` until the task is cancelled, keeping one connection and opening another after
        /// a failure (waiting up to `maximumBackoff` between tries). Each change of reachability is one notice.
        public func follow(
            interval: Duration = .seconds(1), maximumBackoff: Duration = .seconds(10),
            notice: @escaping @Sendable (Notice) -> Void
        ) async {
            var team: TeamStore?
            var floor: Int64 = 0
            var down = false
            var backoff = interval
            while !Task.isCancelled {
                do {
                    let store: TeamStore
                    if let team {
                        store = team
                    } else {
                        store = try await TeamStore.open(address, patience: patience)
                        team = store
                    }
                    let report = try await push(
                        to: store, until: nil, progress: nil, from: floor, countingWaiting: false)
                    floor = report.floor
                    if down {
                        down = false
                        notice(.reachable(sent: report.added + report.alreadyThere))
                    }
                    if !report.refused.isEmpty { notice(.refused(report.refused)) }
                    if let identity = report.newIdentity { notice(.newIdentity(identity)) }
                    backoff = interval
                } catch {
                    if Task.isCancelled { break }
                    await team?.close()
                    team = nil
                    if !down {
                        down = true
                        let waiting =
                            (try? await local.pushBacklog(destination: address.destination, from: floor).waiting) ?? 0
                        notice(
                            .unreachable(TeamStore.failure(error, doing: "push", address: address), waiting: waiting))
                    }
                    backoff = min(backoff * 2, maximumBackoff)
                }
                try? await Task.sleep(for: down ? backoff : interval)
            }
            await team?.close()
        }
    }
#endif
