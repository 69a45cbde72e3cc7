import Foundation

/// Two servers at once, as the tests of named providers want them.
extension LoopbackServer {
    /// Starts a server answering with `first` and another answering with `second`, runs `body` with both,
    /// and stops them afterwards, whether `body` returned or threw.
    public static func withTwo(
        _ first: @escaping Route, _ second: @escaping Route,
        _ body: (LoopbackServer, LoopbackServer) async throws -> Void
    ) async throws {
        let one = try await start(route: first)
        let two: LoopbackServer
        do { two = try await start(route: second) } catch {
            await one.stop()
            throw error
        }
        do { try await body(one, two) } catch {
            await one.stop()
            await two.stop()
            throw error
        }
        await one.stop()
        await two.stop()
    }
}
