import Foundation
import ResponsesAPI

/// `batch submit`'s input made into the Batch API's JSONL, a line at a time: each prompt composed from the
/// settings (`base`: defaults < config < preset < `--set`) with its own `vars` and `settings` over them, by
/// `PayloadBuilder` as `ask` composes (answered whole: no stream, no background); each full request body
/// checked and kept as written. Every line is checked before anything is sent: the problems come back
/// together, each `INPUT.jsonl:LINE: key: message`. Neither file is ever held whole.
public struct BatchComposer: Sendable {
    public var base: SettingsStack
    public var environment: AppEnvironment

    /// The Batch API's limits: requests in a batch and bytes in its input file.
    public static let requestLimit = 50_000
    public static let byteLimit = 200 * 1024 * 1024

    public init(base: SettingsStack, environment: AppEnvironment) {
        self.base = base
        self.environment = environment
    }

    /// What was composed: the requests (in order), the bytes written, and the load on each model.
    public struct Plan: Sendable {
        public var path: String
        public var requests = 0
        public var bytes = 0
        /// Each request's id and the input line it came from, in order.
        public var lines: [(id: String, line: Int)] = []
        public var models: [String: ModelLoad] = [:]

        public init(path: String) {
            self.path = path
        }
    }

    /// What a batch asks of one model: requests, input tokens estimated at four bytes of text a token, and the
    /// output tokens the requests allow at most when each sets `max_output_tokens`.
    public struct ModelLoad: Sendable, Hashable {
        public var requests = 0
        public var estimatedInputTokens = 0
        /// Nil when a request sets no `max_output_tokens` (its output has no bound to price).
        public var maximumOutputTokens: Int? = 0
    }

    /// Composes `inputPath` into `outputPath` (created 0600, replaced); throws every problem found (and removes
    /// what was written), or a file that cannot be read or written.
    public func compose(inputPath: String, outputPath: String) throws -> Plan {
        var reader = try LineReader(path: inputPath)
        let writer = try BatchLineWriter(path: outputPath)
        var plan = Plan(path: outputPath)
        var problems: [BatchInputProblem] = []
        var more = 0
        var seen: Set<String> = []
        let settings = base.effective
        func note(_ line: Int, _ key: String?, _ message: String) {
            if problems.count < BatchInputError.shownLimit {
                problems.append(BatchInputProblem(path: inputPath, line: line, key: key, message: message))
            } else {
                more += 1
            }
        }
        do {
            while let bytes = try reader.next() {
                let number = reader.lineNumber
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                let line: BatchLine
                switch BatchLine.parse(bytes) {
                case .success(let parsed): line = parsed
                case .failure(let found):
                    for item in found.items { note(number, item.key, item.message) }
                    continue
                }
                let id = line.id ?? "line-\(number)"
                guard seen.insert(id).inserted else {
                    note(number, line.id == nil ? nil : "id", "the id \(JSONValue.string(id).compactString) is taken")
                    continue
                }
                let body: JSONObject
                do {
                    body = try self.body(of: line, defaults: settings)
                } catch {
                    for item in error.items { note(number, item.key, item.message) }
                    continue
                }
                plan.requests += 1
                guard problems.isEmpty, more == 0 else { continue }
                plan.lines.append((id, number))
                plan.count(body)
                plan.bytes += try writer.write(
                    ["custom_id": .string(id), "method": "POST", "url": "/v1/responses", "body": .object(body)])
            }
            if plan.requests == 0, problems.isEmpty {
                note(max(1, reader.lineNumber), nil, "no requests: each line is one JSON object")
            }
            if plan.requests > Self.requestLimit {
                note(reader.lineNumber, nil, "\(plan.requests) requests; a batch takes at most \(Self.requestLimit)")
            }
            if plan.bytes > Self.byteLimit {
                note(reader.lineNumber, nil, "the requests make \(ByteSize.text(plan.bytes)); a batch takes 200 MB")
            }
            try writer.close()
        } catch {
            try? writer.close()
            try? FileManager.default.removeItem(atPath: outputPath)
            throw error
        }
        guard problems.isEmpty else {
            try? FileManager.default.removeItem(atPath: outputPath)
            throw BatchInputError(problems: problems, more: more)
        }
        return plan
    }

    /// The request body a line becomes.
    func body(of line: BatchLine, defaults: TurnSettings) throws(BatchLine.Problems) -> JSONObject {
        switch line {
        case .request(_, let body):
            // Checked as it was read (`BatchLine.parse`): sent as written.
            return body
        case .prompt(_, let input, let variables, let settings):
            var stack = base
            var effective = defaults
            if !variables.isEmpty || !settings.isEmpty {
                if !variables.isEmpty { stack.variables = stack.variables.merging(variables) { $1 } }
                for (key, value) in settings { stack.session.assign(key, value) }
                effective = stack.effective
            }
            // A preset's {{variable}} with no value: said in the words of a line, not of the command line.
            let missing = effective.missingVariables
            if !missing.isEmpty {
                throw BatchLine.Problems(
                    missing.map { variable in
                        (
                            "vars",
                            "{{\(variable.name)}}" + (variable.location.map { " (\($0))" } ?? "")
                                + " has no value: give it in the line's \"vars\", with -v \(variable.name)=VALUE, "
                                + "or a default under the preset's variables:"
                        )
                    })
            }
            do {
                let composed = try PayloadBuilder().compose(
                    settings: effective, conversation: nil, input: effective.templated(input),
                    for: .send(environment))
                var object = composed.request.body
                object["stream"] = nil
                object["background"] = nil
                object["stream_options"] = nil
                return object
            } catch {
                throw BatchLine.Problems([(nil, error.message.replacingOccurrences(of: "\n", with: "; "))])
            }
        }
    }
}

extension BatchComposer.Plan {
    /// Adds a request's body to its model's load.
    mutating func count(_ body: JSONObject) {
        let model = body["model"]?.stringValue ?? "?"
        var load = models[model] ?? BatchComposer.ModelLoad()
        load.requests += 1
        let text =
            (body["input"]?.compactString.utf8.count ?? 0) + (body["instructions"]?.compactString.utf8.count ?? 0)
        load.estimatedInputTokens += (text + 3) / 4
        if let limit = body["max_output_tokens"]?.intValue, let sum = load.maximumOutputTokens {
            load.maximumOutputTokens = sum + max(0, limit)
        } else {
            load.maximumOutputTokens = nil
        }
        models[model] = load
    }
}
