import Foundation

/// Routes and answers the console's tests share across their targets (ConsoleTests, BinaryTests,
/// TerminalTests): one test of a kind and one of another ask the same server for the same thing.
public enum ConsoleRoutes {
    /// Counts the input tokens (`POST /responses/input_tokens` answers `counted`) and streams a short
    /// answer from gpt-4.1-mini, with usage: what `ask --estimate`, `/cost` and `/usage` are tried on.
    public static func cost(counted: Int) -> LoopbackServer.Route {
        { request in
            switch request.path {
            case "/v1/responses/input_tokens": .json(#"{"object":"response.input_tokens","input_tokens":\#(counted)}"#)
            case "/v1/responses":
                .sse(
                    Fixtures.textStream(
                        id: "resp_cost", model: "gpt-4.1-mini", text: "one two three", previousResponseID: nil))
            default: .json(#"{"error":{"message":"no route"}}"#, status: 404)
            }
        }
    }

    /// A provider named `label`: one file (`file-LABEL`), one vector store (`vs_LABEL`), and any other request
    /// answered "answer from LABEL": which provider a command reached shows in what it prints.
    public static func provider(_ label: String) -> LoopbackServer.Route {
        { request in
            switch request.path {
            case "/v1/files":
                .json(
                    #"{"object":"list","data":[{"id":"file-\#(label)","object":"file","bytes":3,"created_at":1700000000,"filename":"\#(label).txt","purpose":"assistants"}],"has_more":false}"#
                )
            case "/v1/vector_stores":
                .json(
                    #"{"object":"list","data":[{"id":"vs_\#(label)","object":"vector_store","name":"\#(label)","created_at":1700000000,"status":"completed","usage_bytes":0,"file_counts":{"in_progress":0,"completed":0,"failed":0,"cancelled":0,"total":0}}],"has_more":false}"#
                )
            default:
                .sse(Fixtures.textStream(id: "resp_\(label)", text: "answer from \(label)", previousResponseID: nil))
            }
        }
    }

    /// Background jobs: a background `POST /responses` streams `resp_bg1` (a foreground one `resp_fg1`),
    /// `resp_bg1` is in progress and is cancelled; cancelling anything else is refused with a request id.
    public static func jobs(_ request: ReceivedRequest) -> Reply {
        switch (request.method, request.path) {
        case ("POST", "/v1/responses"):
            let background = String(decoding: request.body, as: UTF8.self).contains(#""background":true"#)
            return .sse(Fixtures.textStream(id: background ? "resp_bg1" : "resp_fg1", text: "Working on it"))
        case ("GET", "/v1/responses/resp_bg1"):
            return .json(#"{"id":"resp_bg1","object":"response","status":"in_progress","model":"m","output":[]}"#)
        case ("POST", "/v1/responses/resp_bg1/cancel"):
            return .json(#"{"id":"resp_bg1","object":"response","status":"cancelled","model":"m","output":[]}"#)
        default:
            return .json(
                #"{"error":{"message":"Cannot cancel a completed response.","type":"invalid_request_error","code":null}}"#,
                status: 400, headers: [("x-request-id", "req_cancel")])
        }
    }
}

extension Fixtures {
    /// `text`'s frames with log probabilities on the final output_text parts: two tokens, each with its
    /// alternatives (the chosen one among them, as the API lists it).
    public static func textStreamWithLogprobs(text: String) -> [String] {
        let logprobs =
            #"[{"token":"Par","logprob":-0.0182,"bytes":[80,97,114],"top_logprobs":[{"token":"Par","logprob":-0.0182,"bytes":[]},{"token":" Paris","logprob":-4.5,"bytes":[]}]},{"token":"is\n","logprob":-0.693147,"bytes":[],"top_logprobs":[{"token":"is\n","logprob":-0.693147,"bytes":[]},{"token":"is.","logprob":-1.2,"bytes":[]}]}]"#
        return Fixtures.textStream(id: "resp_lp", text: text).map { frame in
            frame.contains("response.completed") || frame.contains("content_part.done")
                || frame.contains("output_item.done")
                ? frame.replacingOccurrences(
                    of: #""annotations":[]}"#, with: #""annotations":[],"logprobs":\#(logprobs)}"#) : frame
        }
    }

    /// A Markdown answer with a heading, a list, a table and a Swift code block.
    public static let markdownPlan = """
        # Plan

        - **first** step
        - second step

        | Tool | Use |
        |------|-----|
        | grep | search |

        ```swift
        let total = items.map(\\.price).reduce(0, +)
        ```
        Done.
        """
}
