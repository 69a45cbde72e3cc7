import Foundation

/// The set-up most terminal tests share, in one place.
extension ConsoleHarness {
    /// A harness on a new loopback server answering with `route`; `close()` ends both.
    public static func start(route: @escaping LoopbackServer.Route) async throws -> ConsoleHarness {
        ConsoleHarness(server: try await LoopbackServer.start(route: route))
    }

    /// Removes the data directory and stops the server (in a task of its own, as a `defer` wants).
    public func close() {
        remove()
        Task { await server.stop() }
    }

    /// Starts a loopback server answering with `route` and a harness on it, which `prepare` may change (its
    /// variables, files in its home); opens the console in tmux with `arguments` and runs `body` with the
    /// terminal, the server and the harness. Afterwards, whether `body` returned or threw, the terminal is
    /// killed, the data directory removed and the server stopped.
    public static func withConsole(
        route: @escaping LoopbackServer.Route, arguments: [String] = [],
        prepare: (inout ConsoleHarness) throws -> Void = { _ in },
        _ body: (TmuxSession, LoopbackServer, ConsoleHarness) async throws -> Void
    ) async throws {
        let server = try await LoopbackServer.start(route: route)
        do {
            try await withConsole(on: server, arguments: arguments, prepare: prepare) { try await body($0, server, $1) }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The same on a server already running, which it leaves running: `body` gets the terminal and the
    /// harness; afterwards the terminal is killed and the data directory removed.
    public static func withConsole(
        on server: LoopbackServer, arguments: [String] = [], prepare: (inout ConsoleHarness) throws -> Void = { _ in },
        _ body: (TmuxSession, ConsoleHarness) async throws -> Void
    ) async throws {
        var harness = ConsoleHarness(server: server)
        defer { harness.remove() }
        try prepare(&harness)
        let tmux = try await harness.startConsole(arguments: arguments)
        defer { tmux.kill() }
        try await body(tmux, harness)
    }
}
