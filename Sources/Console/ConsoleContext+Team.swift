import Foundation
import Inspector
import ResponsesAPI
import TeamStore
import Workbench

/// The team's inspector (Docs/team.md): where it is, and the local store's exchanges pushed to it when a
/// command ends. Without the TeamInspector trait, a configured team store is an error that says how to get it.
extension ConsoleContext {
    /// The team store the inspector uses: OPENRESPONSES_INSPECTOR_URL, else `inspector.url` in config.yaml; nil
    /// when neither is set. A URL without a password takes OPENRESPONSES_INSPECTOR_PASSWORD's.
    static func teamAddress(environment: AppEnvironment) throws -> TeamStoreAddress? {
        var address: TeamStoreAddress
        if let url = environment["OPENRESPONSES_INSPECTOR_URL"], !url.isEmpty {
            address = try TeamStoreAddress(parsing: url, origin: "OPENRESPONSES_INSPECTOR_URL")
        } else if let config = try ConfigFile.load(environment: environment), let url = config.inspectorURL {
            let origin = config.inspectorURLLocation.map { "\($0): inspector.url" } ?? "inspector.url"
            address = try TeamStoreAddress(parsing: url, origin: origin)
        } else {
            return nil
        }
        if address.password == nil, let password = environment["OPENRESPONSES_INSPECTOR_PASSWORD"] {
            address.password = password
        }
        return address
    }

    /// The error for a team store this build cannot reach.
    static func noTeamEngine(_ address: TeamStoreAddress) -> ConsoleError {
        ConsoleError(
            "the inspector is set to the team store \(address), and this build has no PostgreSQL engine",
            exitStatus: .usage,
            hint: "install with scripts/install.sh --team, or read this machine's store with --local")
    }

    /// What is said when this store took a new identity because another store had its own.
    static func newIdentityNote(_ identity: String, address: TeamStoreAddress) -> String {
        "note: the team inspector \(address) holds another store's exchanges under this store's identity (a copied data directory?); this store took a new one, \(identity), for what it sends from now on\n"
    }

    /// At a command's end: the exchanges it recorded (and any still waiting) sent to the team store, within a
    /// few seconds. A store out of reach is said once per outage (a marker in the data directory), not at every
    /// command; the exchanges wait in the local store for the next command that reaches it.
    func pushToTeam() async {
        // A command stopped by Ctrl-C pushes with the next one: a cancelled push would only read as an outage.
        guard !Task.isCancelled, recorder != nil, let address = try? Self.teamAddress(environment: environment) else {
            return
        }
        #if TeamInspector
            guard let local = try? InspectorStore.open(at: environment.inspectorPath) else { return }
            let marker = environment.dataDirectory.appendingPathComponent("team-unreachable").path
            let shipper = TeamShipper(local: local, address: address, patience: .seconds(3))
            do {
                let report = try await shipper.push(until: .now + .seconds(5))
                if FileManager.default.fileExists(atPath: marker) {
                    try? FileManager.default.removeItem(atPath: marker)
                    diagnostics.write(
                        "note: the team inspector \(address) is reachable again; the waiting exchanges were sent\n")
                }
                if let identity = report.newIdentity {
                    diagnostics.write(Self.newIdentityNote(identity, address: address))
                }
                for (id, reason) in report.refused {
                    diagnostics.write("warning: the team inspector \(address) refused exchange \(id): \(reason)\n")
                }
            } catch {
                guard !FileManager.default.fileExists(atPath: marker) else { return }
                _ = FileManager.default.createFile(
                    atPath: marker, contents: nil, attributes: [.posixPermissions: 0o600])
                let waiting = (try? await local.pushBacklog(destination: address.destination).waiting) ?? 0
                diagnostics.write(
                    "warning: \(TeamStore.failure(error, doing: "push", address: address).message); \(waiting) exchange\(waiting == 1 ? "" : "s") wait in \(environment.inspectorPath) and go with the next command that reaches it (said once until then)\n"
                )
            }
        #else
            diagnostics.write("warning: \(Self.noTeamEngine(address).message): what this command recorded stays here\n")
        #endif
    }
}
