import MCP
import ResponsesAPI

/// What of a server's tool list is offered to the model: a server is untrusted, and one bad tool would make
/// every request fail (a schema the API refuses, two functions of one name), or make each one huge.
extension MCPToolbox {
    /// Tools offered per server at the most.
    static let maximumToolsPerServer = 128
    /// A tool's input schema, serialized, at the most; and how deep it may nest.
    static let maximumSchemaBytes = 64 << 10
    static let maximumSchemaDepth = 32

    /// The tools worth offering, in the server's order: the first of each name, a schema that is a JSON object
    /// schema within the caps, at most `maximumToolsPerServer`; and why the others were left out.
    static func vetted(_ tools: [Tool], server: String) -> (kept: [Tool], leftOut: [String]) {
        var kept: [Tool] = []
        var leftOut: [String] = []
        var names: Set<String> = []
        for tool in tools {
            let name = quoted(tool.name)
            guard names.insert(tool.name).inserted else {
                leftOut.append("\(name): a second tool of that name")
                continue
            }
            guard kept.count < maximumToolsPerServer else {
                leftOut.append(
                    "\(tools.count - kept.count - leftOut.count) more tools past the first \(maximumToolsPerServer)")
                break
            }
            if let problem = schemaProblem(MCPToolOutput.json(tool.inputSchema)) {
                leftOut.append("\(name): its input schema \(problem)")
                continue
            }
            kept.append(tool)
        }
        return (kept, leftOut)
    }

    /// Why `schema` cannot be a function's parameters, or nil.
    static func schemaProblem(_ schema: JSONValue?) -> String? {
        guard let schema, case .object(let object) = schema else { return "is not a JSON object" }
        if let type = object["type"], type != "object" {
            return "is not an object's schema (type \(type.compactString))"
        }
        if schema.serialized().count > maximumSchemaBytes { return "is over \(maximumSchemaBytes >> 10) KiB" }
        if depth(schema) > maximumSchemaDepth { return "nests deeper than \(maximumSchemaDepth) levels" }
        return nil
    }

    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .object(let object): 1 + (object.map { depth($0.value) }.max() ?? 0)
        case .array(let items): 1 + (items.map(depth).max() ?? 0)
        default: 0
        }
    }

    /// A tool's name as a note quotes it: its first 64 scalars.
    static func quoted(_ name: String) -> String {
        name.unicodeScalars.count > 64 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(64))) + "…" : name
    }
}
