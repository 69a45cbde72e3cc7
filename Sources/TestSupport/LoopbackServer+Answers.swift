import Foundation
import ResponsesAPI

/// A route that answers `POST /responses` with `answer(model, input)`: streamed word by word when the request
/// streams, whole (the final response object) when it says `stream: false`. Ids are resp_1, resp_2, ...;
/// the response names the model the request asked for, and its usage is 12 input tokens and one output token
/// a word.
public func answeringRoute(_ answer: @escaping @Sendable (_ model: String, _ input: String) -> String)
    -> LoopbackServer.Route
{
    let counter = Counter()
    return { request in
        let body = (try? JSONValue.parse(request.body)) ?? .null
        let model = body["model"]?.stringValue ?? "test-model"
        let input = body["input"]?.stringValue ?? body["input"]?[0]?["content"]?.stringValue ?? ""
        let frames = Fixtures.textStream(id: "resp_\(counter.next())", model: model, text: answer(model, input))
        guard body["stream"]?.boolValue == false else { return .sse(frames) }
        guard let data = frames.last?.split(separator: "\n").first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
            let response = (try? JSONValue.parse(Array(data.utf8)))?["response"]
        else { return .json(#"{"error":{"message":"the test route could not build its answer"}}"#, status: 500) }
        return .json(response.compactString)
    }
}
