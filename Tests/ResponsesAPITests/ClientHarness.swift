import Foundation
import ResponsesAPI
import TestSupport

/// A client over the real transport, pointed at a loopback server; shut down after `body`.
func withClient<T>(
    server: LoopbackServer, apiKey: String? = "sk-test-0123456789abcdef", observer: (any ExchangeObserver)? = nil,
    _ body: (ResponsesClient) async throws -> T
) async throws -> T {
    let configuration = Configuration(baseURL: server.baseURL, apiKey: apiKey, readTimeout: .seconds(10))
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

/// Collects a stream's events and its error (if it threw).
func collect(
    _ stream: AsyncThrowingStream<ResponseStreamEvent, any Error>
) async -> (events: [ResponseStreamEvent], error: ResponsesAPIError?) {
    var events: [ResponseStreamEvent] = []
    do {
        for try await event in stream { events.append(event) }
        return (events, nil)
    } catch let error as ResponsesAPIError {
        return (events, error)
    } catch {
        return (events, ResponsesAPIError(code: .network, message: "unexpected \(error)"))
    }
}

extension [ResponseStreamEvent] {
    var deltaText: String {
        reduce(into: "") { text, event in
            if case .outputTextDelta(let delta) = event.kind { text += delta.delta }
        }
    }

    var finalResponse: Response? {
        compactMap { event -> Response? in
            if case .responseFinished(let response) = event.kind { return response }
            return nil
        }.last
    }
}
