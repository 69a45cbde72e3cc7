import Foundation
import Inspector
import Library
import MCP
import ResponsesAPI

/// The tools: their schemas (what a client's model sees) and what each does.
extension LibraryMCPServer {
    var tools: [Tool] {
        let readOnly = Tool.Annotations(readOnlyHint: true, openWorldHint: false)
        var tools = [
            Tool(
                name: "library_search",
                description:
                    "Search the user's local document library. Returns the best passages, each with its file, page "
                    + "(PDFs), heading and score, as JSON.",
                inputSchema: Self.object(
                    [
                        "query": ["type": "string", "description": "What to look for."],
                        "k": [
                            "type": "integer", "minimum": 1, "maximum": 50,
                            "description": "How many passages (default 5).",
                        ],
                        "mode": [
                            "type": "string", "enum": ["hybrid", "keyword", "semantic"],
                            "description":
                                "Ranking: keyword (BM25), semantic (MiniLM vectors) or both fused (default).",
                        ],
                        "document": ["type": "string", "description": "Only this document (a path or its end)."],
                    ], required: ["query"]), annotations: readOnly),
            Tool(
                name: "library_ask",
                description:
                    "Answer a question from the library without a model: the passages' sentences that best answer it, "
                    + "each cited [n], then footnotes naming file and page.",
                inputSchema: Self.object(
                    [
                        "question": ["type": "string"],
                        "k": ["type": "integer", "minimum": 1, "maximum": 50, "description": "Passages to draw from."],
                    ], required: ["question"]), annotations: readOnly),
            Tool(
                name: "library_list", description: "The library's documents: path, type, pages, passages, status.",
                inputSchema: Self.object([:], required: []), annotations: readOnly),
        ]
        if access.inspector != nil {
            tools += [
                Tool(
                    name: "inspect_list",
                    description: "The user's recorded Responses API exchanges, newest first (secrets were never kept).",
                    inputSchema: Self.object(
                        [
                            "limit": ["type": "integer", "minimum": 1, "maximum": 200],
                            "search": ["type": "string", "description": "Only exchanges whose bodies contain this."],
                            "model": ["type": "string"],
                        ], required: []), annotations: readOnly),
                Tool(
                    name: "inspect_show",
                    description: "One recorded exchange, whole, as `inspect dump --format json` gives it.",
                    inputSchema: Self.object(["id": ["type": "integer"]], required: ["id"]), annotations: readOnly),
            ]
        }
        if access.add != nil {
            tools.append(
                Tool(
                    name: "library_add",
                    description: "Add files or folders (paths on the user's machine) to the library.",
                    inputSchema: Self.object(
                        ["paths": ["type": "array", "items": ["type": "string"], "minItems": 1]], required: ["paths"]),
                    annotations: Tool.Annotations(readOnlyHint: false, destructiveHint: false, openWorldHint: false)))
        }
        return tools
    }

    static func object(_ properties: [String: Value], required: [String]) -> Value {
        [
            "type": "object", "properties": .object(properties), "required": .array(required.map(Value.string)),
            "additionalProperties": false,
        ]
    }

    func search(_ arguments: [String: Value]) async throws -> CallTool.Result {
        let query = try Self.text("query", in: arguments)
        let k = try Self.integer("k", in: arguments, range: 1...50) ?? 5
        var mode: Retriever.Mode?
        if let name = arguments["mode"]?.stringValue {
            guard let chosen = Retriever.Mode(rawValue: name) else {
                throw ToolArgumentError(message: "mode: '\(name)' is not hybrid, keyword or semantic")
            }
            mode = chosen
        }
        let filter = LibraryStore.SearchFilter(document: arguments["document"]?.stringValue)
        let service = try access.library()
        defer { Task { await service.finish() } }
        let result = try await service.retriever().search(
            query, k: k, filter: filter, mode: mode ?? service.options.searchMode)
        let passages: [JSONValue] = result.hits.map { hit in
            [
                "path": .string(hit.path), "title": hit.title.map(JSONValue.string) ?? .null,
                "page": hit.page.map(JSONValue.integer) ?? .null,
                "end_page": hit.endPage.map(JSONValue.integer) ?? .null,
                "heading": hit.heading.map(JSONValue.string) ?? .null, "location": .string(hit.location),
                "score": .number(hit.score), "text": .string(hit.text),
            ]
        }
        var reply: JSONObject = ["mode": .string(result.mode.rawValue), "passages": .array(passages)]
        if let notice = result.notice { reply["notice"] = .string(notice) }
        return Self.reply(JSONValue.object(reply).prettyPrinted())
    }

    func ask(_ arguments: [String: Value]) async throws -> CallTool.Result {
        let question = try Self.text("question", in: arguments)
        let k = try Self.integer("k", in: arguments, range: 1...50)
        let service = try access.library()
        defer { Task { await service.finish() } }
        let turn = try await service.turn(question, k: k)
        let answer = turn.withoutModel.text
        return Self.reply(answer.isEmpty ? "Nothing in the library matches the question." : answer)
    }

    func list() async throws -> CallTool.Result {
        let documents = try await access.library().store.documents()
        let rows: [JSONValue] = documents.map { document in
            [
                "path": .string(document.path), "title": document.title.map(JSONValue.string) ?? .null,
                "type": .string(document.type.rawValue), "pages": document.pages.map(JSONValue.integer) ?? .null,
                "passages": .integer(document.chunkCount), "status": .string(document.status.rawValue),
                "error": document.error.map(JSONValue.string) ?? .null,
                "resource": .string(Self.resourceURI(document)),
            ]
        }
        return Self.reply(JSONValue.array(rows).prettyPrinted())
    }

    func inspectList(_ arguments: [String: Value]) async throws -> CallTool.Result {
        guard let open = access.inspector else { return Self.reply("the inspector is not served", isError: true) }
        let query = ExchangeQuery(
            model: arguments["model"]?.stringValue, search: arguments["search"]?.stringValue,
            limit: try Self.integer("limit", in: arguments, range: 1...200) ?? 20)
        let rows = try await open().exchanges(matching: query)
        return Self.reply(JSONValue.array(rows.map(\.json)).prettyPrinted())
    }

    func inspectShow(_ arguments: [String: Value]) async throws -> CallTool.Result {
        guard let open = access.inspector else { return Self.reply("the inspector is not served", isError: true) }
        guard let id = try Self.integer("id", in: arguments, range: 1...Int.max) else {
            throw ToolArgumentError(message: "id: give the exchange's number (inspect_list shows them)")
        }
        guard let detail = try await open().exchange(id: Int64(id)) else {
            return Self.reply("no exchange \(id) is recorded", isError: true)
        }
        return Self.reply(ExchangeExporter().export(detail, as: .json))
    }

    func add(_ arguments: [String: Value]) async throws -> CallTool.Result {
        guard let add = access.add else {
            return Self.reply("writing is not allowed (mcp serve --allow-write)", isError: true)
        }
        let paths = (arguments["paths"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard !paths.isEmpty else { throw ToolArgumentError(message: "paths: give at least one path") }
        return Self.reply(try await add(paths))
    }

    static func text(_ name: String, in arguments: [String: Value]) throws -> String {
        guard let text = arguments[name]?.stringValue, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ToolArgumentError(message: "\(name): a non-empty string is required")
        }
        return text
    }

    static func integer(_ name: String, in arguments: [String: Value], range: ClosedRange<Int>) throws -> Int? {
        guard let value = arguments[name] else { return nil }
        guard let number = value.intValue ?? value.doubleValue.flatMap({ $0 == $0.rounded() ? Int(exactly: $0) : nil }),
            range.contains(number)
        else {
            throw ToolArgumentError(message: "\(name): a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
