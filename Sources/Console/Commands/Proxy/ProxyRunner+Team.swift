import Foundation
import Inspector
import Proxy
import TeamStore
import Workbench

/// The proxy as a team's gateway (Docs/team.md): while it serves, what it records goes on to the team store
/// every second, and what is left when it stops; an outage is said when it starts and when it ends, the
/// exchanges waiting in the local store.
extension ProxyRunner {
    /// Where a budget's figures come from: the team store and this machine's unpushed exchanges when a team
    /// store is set, else this machine's store; none without an inspector.
    static func spending(recorder: ExchangeRecorder?, environment: AppEnvironment) throws -> (any SpendReading)? {
        guard let recorder else { return nil }
        #if TeamInspector
            if let address = try ConsoleContext.teamAddress(environment: environment) {
                return TeamSpending(recorder: recorder, address: address)
            }
        #endif
        return RecorderSpending(recorder: recorder)
    }

    /// Closes the team store's connection a budget's figures were read on, if any.
    static func close(_ spending: (any SpendReading)?) async {
        #if TeamInspector
            await (spending as? TeamSpending)?.close()
        #endif
    }

    func shippingToTeam<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard context.recorder != nil, let address = try ConsoleContext.teamAddress(environment: context.environment)
        else { return try await body() }
        #if TeamInspector
            guard let local = await context.recorder?.openedStore() else { return try await body() }
            let diagnostics = context.diagnostics
            let path = local.path
            let shipper = TeamShipper(local: local, address: address, patience: .seconds(5))
            let follower = Task {
                await shipper.follow { notice in
                    switch notice {
                    case .unreachable(let error, let waiting):
                        diagnostics.write(
                            "warning: \(error.message); exchanges wait in \(path) (\(waiting) now) and go when it is back\n"
                        )
                    case .reachable(let sent):
                        diagnostics.write(
                            "note: the team inspector \(address) is back; \(sent) waiting exchanges sent\n")
                    case .refused(let refused):
                        for (id, reason) in refused {
                            diagnostics.write("warning: the team inspector refused exchange \(id): \(reason)\n")
                        }
                    case .newIdentity(let identity):
                        diagnostics.write(ConsoleContext.newIdentityNote(identity, address: address))
                    }
                }
            }
            defer { follower.cancel() }
            let served: Result<T, any Error>
            do { served = .success(try await body()) } catch { served = .failure(error) }
            follower.cancel()
            await follower.value
            // What it recorded last goes before it ends, within a few seconds: in a task of its own, since Ctrl-C
            // cancelled the serving one. What does not go waits in the local store for the next push from here.
            let recorder = context.recorder
            let last = Task {
                _ = await recorder?.waitUntilIdle(timeout: .seconds(3))
                return try await shipper.push(until: .now + .seconds(3))
            }
            // Six seconds in all, whatever the database does (a connection, a check of its schema and a batch
            // each have their own deadline): then the push is cancelled and the rest waits here.
            let limit = Task {
                try await Task.sleep(for: .seconds(6))
                last.cancel()
            }
            defer { limit.cancel() }
            do {
                let report = try await last.value
                if report.waiting > 0 {
                    diagnostics.write("note: \(report.waiting) exchanges wait in \(path) for the next push from here\n")
                }
            } catch {
                diagnostics.write(
                    "warning: \(TeamStore.failure(error, doing: "push", address: address).message); what was not sent waits in \(path) for the next push from here\n"
                )
            }
            return try served.get()
        #else
            throw ConsoleContext.noTeamEngine(address)
        #endif
    }
}

#if TeamInspector
    /// A budget's figure with a team store: what the user spent through every proxy (the team store's sum) and
    /// what this machine has not pushed yet. While the team store is out of reach, this machine's own records
    /// answer (a user could then spend up to the budget at each proxy; said in Docs/team.md).
    actor TeamSpending: SpendReading {
        let recorder: ExchangeRecorder
        let address: TeamStoreAddress
        /// The one connection, opened once for every caller (an actor's method suspends in the open, and each
        /// caller opening its own would leave all but one unclosed).
        private var opening: Task<TeamStore, any Error>?
        /// After a failure, the team store is not asked again before this (this machine's figures answer).
        private var retryAfter = ContinuousClock.now

        init(recorder: ExchangeRecorder, address: TeamStoreAddress) {
            self.recorder = recorder
            self.address = address
        }

        func spent(user: String, since: Date) async throws -> Double {
            guard let local = await recorder.openedStore() else {
                return try await recorder.spent(user: user, since: since)
            }
            guard ContinuousClock.now >= retryAfter else { return try await local.spent(user: user, since: since) }
            let address = address
            let opening = self.opening ?? Task { try await TeamStore.open(address, patience: .seconds(2)) }
            self.opening = opening
            do {
                let team = try await opening.value
                let unpushed = try await local.spent(user: user, since: since, notPushedTo: address.destination)
                return try await team.spent(user: user, since: since) + unpushed
            } catch {
                if self.opening == opening {
                    self.opening = nil
                    retryAfter = .now + .seconds(5)
                    if let team = try? await opening.value { await team.close() }
                }
                return try await local.spent(user: user, since: since)
            }
        }

        func close() async {
            if let team = try? await opening?.value { await team.close() }
            opening = nil
        }
    }
#endif
