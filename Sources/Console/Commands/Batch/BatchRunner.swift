import Foundation
import Inspector
import ResponsesAPI
import Untrusted
import Workbench

/// What `batch submit` was asked: the input, the preset and settings each prompt is composed with, whether
/// to stop after the estimate (`--dry-run`), and how the question before uploading is answered.
public struct BatchSubmitRequest: Sendable {
    public var inputPath: String
    public var options: SessionOptions
    public var dryRun: Bool
    public var json: Bool
    /// Answers "upload and create?" (nil: `--yes`).
    public var confirm: (@Sendable (TerminalText) async -> Bool)?

    public init(
        inputPath: String, options: SessionOptions, dryRun: Bool = false, json: Bool = false,
        confirm: (@Sendable (TerminalText) async -> Bool)? = nil
    ) {
        self.inputPath = inputPath
        self.options = options
        self.dryRun = dryRun
        self.json = json
        self.confirm = confirm
    }
}

/// `openresponses batch`: prompts composed from a preset into the Batch API's input (Workbench's
/// `BatchComposer`), uploaded and run at the batch price; followed (`status`, `wait`), cancelled, and its results
/// matched back to the input's lines and recorded by the inspector (`results`). What this console submitted is
/// kept in the data directory's `batches/` (mode 0700): the composed input, `BATCH.jsonl`, and `BATCH.json`, the
/// record of which input line each request came from.
public struct BatchRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    /// What this console keeps of a batch it submitted (`batches/BATCH.json`).
    struct Record: Sendable {
        var id: String
        var input: String
        var preset: String?
        var provider: String
        var baseURL: String
        /// Each request's `custom_id` and its line in the input.
        var lines: [(id: String, line: Int)]

        var json: JSONValue {
            [
                "id": .string(id), "input": .string(input), "preset": preset.map(JSONValue.string) ?? .null,
                "provider": .string(provider), "base_url": .string(baseURL),
                "lines": .array(lines.map { [.string($0.id), .integer($0.line)] }),
            ]
        }

        init(id: String, input: String, preset: String?, provider: String, baseURL: String, lines: [(String, Int)]) {
            self.id = id
            self.input = input
            self.preset = preset
            self.provider = provider
            self.baseURL = baseURL
            self.lines = lines.map { (id: $0.0, line: $0.1) }
        }

        init?(json: JSONValue) {
            guard let id = json["id"]?.stringValue else { return nil }
            self.init(
                id: id, input: json["input"]?.stringValue ?? "?", preset: json["preset"]?.stringValue,
                provider: json["provider"]?.stringValue ?? ProviderCatalog.defaultName,
                baseURL: json["base_url"]?.stringValue ?? "",
                lines: (json["lines"]?.arrayValue ?? []).compactMap { pair in
                    guard let id = pair[0]?.stringValue, let line = pair[1]?.intValue else { return nil }
                    return (id, line)
                })
        }
    }

    /// `batches/` in the data directory, made (or kept) 0700.
    func folder() throws -> URL {
        let folder = context.environment.dataDirectory.appendingPathComponent("batches", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
        return folder
    }

    /// A server's batch id as the name of this console's files, or nil when it is not one (a server's name is
    /// never a path: only letters, digits, `_` and `-`, at most 128 of them).
    static func fileStem(_ id: String) -> String? {
        let allowed = id.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return allowed && !id.isEmpty && id.utf8.count <= 128 ? id : nil
    }

    /// The kept record of batch `id`, when this console submitted it.
    func record(of id: String) -> Record? {
        guard let stem = Self.fileStem(id), let folder = try? folder(),
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent(stem + ".json").path),
            let json = try? JSONValue.parse(Array(data))
        else { return nil }
        return Record(json: json)
    }

    /// Runs `body` against the server batch `id` lives on (the ledger's provider unless `pinned`).
    func onBatchServer(_ id: String, pinned: Bool, _ body: (BatchRunner) async -> ExitStatus) async -> ExitStatus {
        await context.onServer(of: id, kind: .batch, pinned: pinned) { await body(BatchRunner(context: $0)) }
    }
}
