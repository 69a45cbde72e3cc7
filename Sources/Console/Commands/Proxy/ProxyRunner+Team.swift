import Foundation
import Inspector
import TeamStore

/// The proxy as a team's gateway (Docs/team.md): while it serves, what it records goes on to the team store
/// every second; an outage is said when it starts and when it ends, the exchanges waiting in the local store.
extension ProxyRunner {
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
                    }
                }
            }
            defer { follower.cancel() }
            return try await body()
        #else
            throw ConsoleContext.noTeamEngine(address)
        #endif
    }
}
