import Foundation
import Inspector
import ResponsesAPI
import TeamStore

/// The `inspect` commands over a team's store (Docs/team.md): with `inspector.url` set (and no `--local`),
/// what this machine has not sent yet is pushed first, then the team store answers the command.
extension InspectRunner {
    func withReader(_ body: (any InspectorReading) async throws -> ExitStatus) async -> ExitStatus {
        let address: TeamStoreAddress?
        do {
            address = readsLocal ? nil : try ConsoleContext.teamAddress(environment: environment)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        guard let address else { return await withStore(body) }
        #if TeamInspector
            // What this machine has not sent yet goes first, on the connection the reading then uses (one
            // connection: its handshake is most of a short command's time).
            let local =
                FileManager.default.fileExists(atPath: environment.inspectorPath)
                ? try? InspectorStore.open(at: environment.inspectorPath) : nil
            do {
                return try await TeamStore.with(address) { team in
                    // A push past its time closed the connection: the reading takes another.
                    if let local, await !pushWaiting(from: local, to: team) {
                        return try await TeamStore.with(address) { fresh in await read(fresh, body) }
                    }
                    return await read(team, body)
                }
            } catch let error as TeamStoreError {
                return ErrorReport.write(
                    ConsoleError(error.message, exitStatus: .apiError, hint: "--local reads this machine's store"),
                    to: diagnostics)
            } catch {
                return ErrorReport.write(error, to: diagnostics)
            }
        #else
            return ErrorReport.write(ConsoleContext.noTeamEngine(address), to: diagnostics)
        #endif
    }

    #if TeamInspector
        /// What this machine has not sent yet, pushed to `team` (what does not go waits for the next push); false
        /// when the push closed the connection.
        private func pushWaiting(from local: InspectorStore, to team: TeamStore) async -> Bool {
            do {
                let report = try await TeamShipper(local: local, address: team.address).push(
                    to: team, until: .now + .seconds(10), progress: nil, countingWaiting: false)
                if let identity = report.newIdentity {
                    diagnostics.write(ConsoleContext.newIdentityNote(identity, address: team.address))
                }
                return true
            } catch {
                return !team.isClosed
            }
        }
    #endif

    /// `body` on `reader`, its error shown as the command's.
    private func read(
        _ reader: any InspectorReading, _ body: (any InspectorReading) async throws -> ExitStatus
    ) async -> ExitStatus {
        do {
            return try await body(reader)
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
    }

    /// `inspect push [--to URL]`: every finished exchange of this machine's store not yet in the team store,
    /// sent (idempotent: a second push sends nothing); what the database refused is named, and the rest goes on.
    public func push(to url: String?, retryRefused: Bool) async -> ExitStatus {
        let address: TeamStoreAddress
        do {
            if let url {
                var parsed = try TeamStoreAddress(parsing: url, origin: "--to")
                // On a command line the password would be in every user's process list and the shell's history.
                guard !parsed.passwordInURL else {
                    throw ConsoleError(
                        "--to: a password in the URL is refused (the process list and the shell's history would keep it)",
                        hint: "set OPENRESPONSES_INSPECTOR_PASSWORD, or OPENRESPONSES_INSPECTOR_URL with the password")
                }
                if parsed.password == nil { parsed.password = environment["OPENRESPONSES_INSPECTOR_PASSWORD"] }
                address = parsed
            } else if let configured = try ConsoleContext.teamAddress(environment: environment) {
                address = configured
            } else {
                throw ConsoleError(
                    "no team store to push to: give --to postgres://USER@HOST:PORT/DATABASE or set inspector.url")
            }
        } catch {
            return ErrorReport.write(error, to: diagnostics)
        }
        #if TeamInspector
            return await withStore { local in
                if retryRefused { _ = try await local.forgetPushRefusals(destination: address.destination) }
                let before = try await local.pushBacklog(destination: address.destination)
                output.write("Pushing \(before.waiting) exchange\(before.waiting == 1 ? "" : "s") to \(address)…\n")
                let report = try await TeamShipper(local: local, address: address).push()
                if let identity = report.newIdentity {
                    diagnostics.write(ConsoleContext.newIdentityNote(identity, address: address))
                }
                for (id, reason) in report.refused {
                    diagnostics.write("warning: exchange \(id) refused: \(reason)\n")
                }
                output.write(
                    "Pushed \(report.added) new, \(report.alreadyThere) already there, \(report.refused.count) refused.\n"
                )
                let after = try await local.pushBacklog(destination: address.destination)
                if after.refused > 0 {
                    output.write(
                        "\(after.refused) refused in all; `inspect push --retry-refused` tries them again.\n")
                }
                return report.refused.isEmpty ? .success : .apiError
            }
        #else
            return ErrorReport.write(ConsoleContext.noTeamEngine(address), to: diagnostics)
        #endif
    }
}
