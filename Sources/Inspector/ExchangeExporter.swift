import Foundation
import ResponsesAPI
import Untrusted

/// `inspect dump`: one stored exchange as JSON, a curl command, the SSE stream, or a HAR file. Everything
/// comes from the store, where secrets are already redacted; the curl command takes the key from
/// `$OPENAI_API_KEY` when it runs. The streams' random `obfuscation` padding is left out of the events
/// (`StreamNoise`) unless `keepsObfuscation`, so that two dumps of one request compare.
public struct ExchangeExporter: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case json, curl, sse, har
    }

    /// Events exactly as stored, `obfuscation` included.
    public var keepsObfuscation: Bool

    public init(keepsObfuscation: Bool = false) {
        self.keepsObfuscation = keepsObfuscation
    }

    public func export(_ detail: ExchangeDetail, as format: Format) -> String {
        var detail = detail
        if !keepsObfuscation {
            for index in detail.events.indices {
                detail.events[index].data = StreamNoise.withoutObfuscation(detail.events[index].data)
            }
        }
        return switch format {
        case .json: detail.json.prettyPrinted() + "\n"
        case .curl: curl(detail)
        case .sse: sse(detail)
        case .har: har(detail).prettyPrinted() + "\n"
        }
    }

    /// A shell command that sends the same request: same method, URL, headers and exact body bytes.
    public func curl(_ detail: ExchangeDetail) -> String {
        // -g: the URL as stored, never a glob (a redacted query value is `[REDACTED]`, which curl would expand).
        var lines = [
            "curl -sS -g\(detail.summary.streamed ? " -N" : "") -X \(Self.quote(detail.summary.method)) \(Self.quote(detail.summary.url))"
        ]
        for (name, value) in detail.requestHeaders {
            let lower = name.lowercased()
            if lower == "content-length" || lower == "host" { continue }
            if lower == "authorization" {
                lines.append("-H \"Authorization: Bearer $OPENAI_API_KEY\"")
            } else if lower == "api-key" {
                lines.append("-H \"api-key: $OPENAI_API_KEY\"")
            } else if value == Redactor.placeholder {
                continue  // another secret: not stored, so not replayable
            } else {
                lines.append("-H \(Self.quote("\(name): \(value)"))")
            }
        }
        if !detail.requestBody.isEmpty {
            lines.append("--data-raw \(Self.quote(String(decoding: detail.requestBody, as: UTF8.self)))")
        }
        return lines.joined(separator: " \\\n  ") + "\n"
    }

    /// The stream as the server sent it (one `event:` and `data:` per event), or the JSON body.
    public func sse(_ detail: ExchangeDetail) -> String {
        guard !detail.events.isEmpty else {
            return detail.responseBody.map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
        }
        var text = ""
        for event in detail.events {
            if !event.type.isEmpty { text += "event: \(event.type)\n" }
            for line in String(decoding: event.data, as: UTF8.self).split(
                separator: "\n", omittingEmptySubsequences: false)
            {
                text += "data: \(line)\n"
            }
            text += "\n"
        }
        return text
    }

    /// HTTP Archive 1.2, as browser developer tools read it.
    public func har(_ detail: ExchangeDetail) -> JSONValue {
        let summary = detail.summary
        func headers(_ pairs: [(String, String)]) -> JSONValue {
            .array(pairs.map { ["name": .string($0.0), "value": .string($0.1)] })
        }
        let requestText = String(decoding: detail.requestBody, as: UTF8.self)
        let responseText =
            summary.streamed ? sse(detail) : detail.responseBody.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let query = URLComponents(string: summary.url)?.queryItems ?? []
        var request: JSONObject = [
            "method": .string(summary.method), "url": .string(summary.url), "httpVersion": "HTTP/1.1",
            "cookies": [], "headers": headers(detail.requestHeaders),
            "queryString": .array(query.map { ["name": .string($0.name), "value": .string($0.value ?? "")] }),
            "headersSize": -1, "bodySize": .integer(detail.requestBody.count),
        ]
        if !detail.requestBody.isEmpty {
            request["postData"] = [
                "mimeType": .string(detail.requestHeaders.headerValue("content-type") ?? "application/json"),
                "text": .string(requestText),
            ]
        }
        let wait = detail.ttfbMs ?? 0
        let total = summary.durationMs ?? wait
        let response: JSONValue = [
            "status": .integer(summary.status ?? 0), "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
            "headers": headers(detail.responseHeaders),
            "content": [
                "size": .integer(responseText.utf8.count),
                "mimeType": .string(detail.responseHeaders.headerValue("content-type") ?? "application/octet-stream"),
                "text": .string(responseText),
            ],
            "redirectURL": "", "headersSize": -1, "bodySize": .integer(responseText.utf8.count),
        ]
        let entry: JSONValue = [
            "startedDateTime": .string(InspectorStore.timestamp(summary.startedAt)), "time": .number(total),
            "request": .object(request), "response": response, "cache": [:],
            "timings": ["send": 0, "wait": .number(wait), "receive": .number(max(0, total - wait))],
            "comment": .string("openresponses exchange \(summary.id) (\(summary.state))"),
        ]
        return ["log": ["version": "1.2", "creator": ["name": "openresponses", "version": "0.1"], "entries": [entry]]]
    }

    /// Single-quotes for a POSIX shell.
    static func quote(_ text: String) -> String {
        ShellQuoting.quote(text)
    }
}
