import Foundation
import ResponsesAPI

/// A client over the real transport, pointed at a loopback server; shut down after `body`.
public func withClient<T>(
    server: LoopbackServer, apiKey: String? = "sk-test-0123456789abcdef", observer: (any ExchangeObserver)? = nil,
    _ body: (ResponsesClient) async throws -> T
) async throws -> T {
    try await withClient(baseURL: server.baseURL, apiKey: apiKey, observer: observer, body)
}

/// A client over the real transport, pointed at `baseURL`; shut down after `body`.
public func withClient<T>(
    baseURL: String, apiKey: String?, observer: (any ExchangeObserver)? = nil, readTimeout: Duration = .seconds(60),
    _ body: (ResponsesClient) async throws -> T
) async throws -> T {
    let configuration = Configuration(baseURL: baseURL, apiKey: apiKey, readTimeout: readTimeout)
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    let client = ResponsesClient(configuration: configuration, transport: transport, observer: observer)
    do {
        let value = try await body(client)
        await transport.shutdown()
        return value
    } catch {
        await transport.shutdown()
        throw error
    }
}

extension [ResponseStreamEvent] {
    public var deltaText: String {
        reduce(into: "") { text, event in
            if case .outputTextDelta(let delta) = event.kind { text += delta.delta }
        }
    }

    public var finalResponse: Response? {
        compactMap(\.finalResponse).last
    }
}
