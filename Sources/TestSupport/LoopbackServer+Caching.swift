import Foundation
import ResponsesAPI
import Synchronization

/// A loopback route that caches prompts the way OpenAI documents it: a request whose model, tools and
/// instructions are the previous request's gets the previous prompt's tokens back as cached (1,024 at
/// least, then steps of 128); any other request gets none. Request `n` (from 1) has `2000 + 100 × n` input
/// tokens, its answer is streamed as `resp_n` by `model`.
public func cachingRoute(model: String = "gpt-4.1-mini-2025-04-14") -> LoopbackServer.Route {
    let counter = Counter()
    let last = LastPrompt()
    return { request in
        let body = (try? JSONValue.parse(request.body)) ?? .null
        let n = counter.next()
        let prefix = [body["model"], body["tools"], body["instructions"]].map { $0?.compactString ?? "" }
            .joined(separator: "|")
        let tokens = 2000 + 100 * n
        let cached = last.value.withLock { previous -> Int in
            defer { previous = (prefix, tokens) }
            guard let previous, previous.prefix == prefix, previous.tokens >= 1024 else { return 0 }
            return 1024 + (previous.tokens - 1024) / 128 * 128
        }
        let frames = Fixtures.textStream(
            id: "resp_\(n)", model: model, text: "answer \(n)",
            previousResponseID: body["previous_response_id"]?.stringValue
        ).map {
            $0.replacingOccurrences(
                of: #""input_tokens":12,"input_tokens_details":{"cached_tokens":2}"#,
                with: #""input_tokens":\#(tokens),"input_tokens_details":{"cached_tokens":\#(cached)}"#)
        }
        return .sse(frames)
    }
}

/// The caching route's memory of the last request: its prefix and its tokens.
final class LastPrompt: Sendable {
    let value = Mutex<(prefix: String, tokens: Int)?>(nil)
}
