import Foundation
import Inspector
import ResponsesAPI
import TeamStore

/// `inspect replay ID` with a team store: ID is the team store's, the exchange read from there (it may have been
/// recorded on another machine), replayed from here, recorded here, and pushed at once so that its team id can be
/// said. The link to what it replays is kept when the original was recorded by this machine's store (the local
/// `replay_of` is a local id); the message names both.
extension ReplayRunner {
    /// The exchange to replay and the local id it is, when it is this machine's; nil when no team store is set
    /// (or `--local`): the local store answers.
    func teamExchange(_ id: Int64, local: InspectorStore) async throws -> (detail: ExchangeDetail, localID: Int64?)? {
        guard let address = try ConsoleContext.teamAddress(environment: context.environment) else { return nil }
        #if TeamInspector
            let identity = try await local.identity()
            return try await TeamStore.with(address) { team in
                guard let detail = try await team.exchange(id: id) else {
                    throw ConsoleError("no exchange \(id) in \(address)", exitStatus: .usage)
                }
                let origin = try await team.origin(ofExchange: id)
                return (detail, origin?.store == identity ? origin?.id : nil)
            }
        #else
            throw ConsoleContext.noTeamEngine(address)
        #endif
    }

    /// After a replay from the team store: the new exchange pushed, and its id there said.
    func reportTeamReplay(of id: Int64, local: InspectorStore, after before: Int64) async {
        guard let address = try? ConsoleContext.teamAddress(environment: context.environment) else { return }
        #if TeamInspector
            let newest = (try? await local.lastExchangeID()) ?? 0
            guard newest > before else { return }
            do {
                _ = try await TeamShipper(local: local, address: address, patience: .seconds(5)).push(
                    until: .now + .seconds(5))
                let identity = try await local.identity()
                let teamID = try await TeamStore.with(address, patience: .seconds(5)) { team in
                    try await team.exchangeID(origin: identity, localID: newest)
                }
                context.diagnostics.write(
                    "recorded as exchange \(teamID.map(String.init) ?? "?") of the team store (replay of \(id); \(newest) in \(local.path))\n"
                )
            } catch {
                context.diagnostics.write(
                    "recorded as exchange \(newest) in \(local.path) (replay of \(id) of the team store; not pushed yet: \(error))\n"
                )
            }
        #endif
    }
}
