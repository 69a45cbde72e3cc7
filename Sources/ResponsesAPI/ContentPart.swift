/// A content part of a message (`output_text`, `refusal`) or of a reasoning item (`summary_text`,
/// `reasoning_text`). Any other part type is kept whole in `.unknown`.
public enum ContentPart: Sendable, Hashable {
    case outputText(OutputText)
    case refusal(String)
    case summaryText(String)
    case reasoningText(String)
    case unknown(type: String, json: JSONValue)

    public init(json: JSONValue) {
        switch json["type"]?.stringValue {
        case "output_text": self = .outputText(OutputText(json: json))
        case "refusal": self = .refusal(json["refusal"]?.stringValue ?? "")
        case "summary_text": self = .summaryText(json["text"]?.stringValue ?? "")
        case "reasoning_text": self = .reasoningText(json["text"]?.stringValue ?? "")
        case let type: self = .unknown(type: type ?? "", json: json)
        }
    }

    /// The text of the part, whatever its type (empty for unknown parts).
    public var text: String {
        switch self {
        case .outputText(let part): part.text
        case .refusal(let text), .summaryText(let text), .reasoningText(let text): text
        case .unknown(_, let json): json["text"]?.stringValue ?? ""
        }
    }

    /// An `output_text` part with its annotations (citations) and, when asked for, log probabilities.
    public struct OutputText: Sendable, Hashable {
        public var json: JSONValue
        public init(json: JSONValue) { self.json = json }
        public var text: String { json["text"]?.stringValue ?? "" }
        public var annotations: [Annotation] { (json["annotations"]?.arrayValue ?? []).map(Annotation.init(json:)) }
        public var logprobs: [JSONValue] { json["logprobs"]?.arrayValue ?? [] }
    }
}

/// A citation or file reference attached to output text.
public enum Annotation: Sendable, Hashable {
    /// A file found by file_search; `index` is the position in the text.
    case fileCitation(fileID: String, filename: String?, index: Int?)
    /// A web page found by web_search, citing `startIndex..<endIndex` of the text.
    case urlCitation(url: String, title: String?, startIndex: Int?, endIndex: Int?)
    /// A file produced in a code interpreter container.
    case containerFileCitation(containerID: String, fileID: String, filename: String?, startIndex: Int?, endIndex: Int?)
    /// A path to a generated file.
    case filePath(fileID: String, index: Int?)
    case unknown(type: String, json: JSONValue)

    public init(json: JSONValue) {
        func string(_ key: String) -> String? { json[key]?.stringValue }
        func int(_ key: String) -> Int? { json[key]?.intValue }
        switch string("type") {
        case "file_citation":
            self = .fileCitation(fileID: string("file_id") ?? "", filename: string("filename"), index: int("index"))
        case "url_citation":
            self = .urlCitation(
                url: string("url") ?? "", title: string("title"), startIndex: int("start_index"),
                endIndex: int("end_index"))
        case "container_file_citation":
            self = .containerFileCitation(
                containerID: string("container_id") ?? "", fileID: string("file_id") ?? "",
                filename: string("filename"),
                startIndex: int("start_index"), endIndex: int("end_index"))
        case "file_path":
            self = .filePath(fileID: string("file_id") ?? "", index: int("index"))
        case let type:
            self = .unknown(type: type ?? "", json: json)
        }
    }
}
