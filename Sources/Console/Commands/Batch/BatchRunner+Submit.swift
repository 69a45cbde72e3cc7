import Foundation
import Inspector
import ResponsesAPI
import Workbench

extension BatchRunner {
    /// `batch submit`: every line composed and checked (nothing is sent when one is wrong: exit 2, each problem
    /// `INPUT.jsonl:LINE: key: message`), the estimate at the batch price, the question (`--yes`), the composed
    /// input uploaded (purpose `batch`), the batch created. The composed file and the record of the lines are kept.
    public func submit(_ request: BatchSubmitRequest) async -> ExitStatus {
        let folder: URL
        let plan: BatchComposer.Plan
        let stack: SettingsStack
        let staging: String
        do {
            stack = try request.options.stack(environment: context.environment)
            folder = try self.folder()
            staging = folder.appendingPathComponent("upload-\(UUID().uuidString.lowercased()).jsonl").path
            plan = try BatchComposer(base: stack, environment: context.environment).compose(
                inputPath: request.inputPath, outputPath: staging)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        context.diagnostics.write(Self.estimate(plan))
        if request.dryRun {
            try? FileManager.default.removeItem(atPath: staging)
            context.diagnostics.write("Nothing was uploaded (--dry-run).\n")
            return .success
        }
        if let confirm = request.confirm,
            !(await confirm(
                "Upload \(ByteSize.text(plan.bytes)) and create a batch of \(Self.requests(plan.requests)) on \(context.configuration.baseURL)? [y/N] "
            ))
        {
            try? FileManager.default.removeItem(atPath: staging)
            context.diagnostics.write("Nothing was uploaded.\n")
            return .success
        }
        let batch: BatchObject
        do {
            var metadata = [
                "openresponses_input": String(URL(fileURLWithPath: request.inputPath).lastPathComponent.prefix(500))
            ]
            if let preset = stack.preset?.name { metadata["openresponses_preset"] = preset }
            batch = try await create(
                plan, staging: staging, input: request.inputPath, preset: stack.preset?.name, metadata: metadata)
        } catch {
            return ErrorReport.write(error, to: context.diagnostics)
        }
        if request.json {
            context.output.write(batch.json.prettyPrinted() + "\n")
        } else {
            context.output.write(
                "batch \(batch.id) created: \(Self.requests(plan.requests)) (\(batch.status)).\n"
                    + "Follow it with: openresponses batch wait \(batch.id)\n")
        }
        return .success
    }

    /// Uploads the composed file at `staging` (purpose `batch`), creates the batch and keeps its record; the
    /// staging file is removed when either fails.
    func create(
        _ plan: BatchComposer.Plan, staging: String, input: String, preset: String?, metadata: [String: String]
    ) async throws -> BatchObject {
        do {
            context.diagnostics.write("Uploading \(ByteSize.text(plan.bytes))...\n")
            let file = try await context.client.uploadFile(
                URL(fileURLWithPath: staging), purpose: "batch", mediaType: "application/jsonl")
            guard let fileID = file["id"]?.stringValue else {
                throw ResponsesAPIError(code: .decoding, message: "the uploaded file came back without an id")
            }
            let batch = try await context.client.createBatch(inputFileID: fileID, metadata: metadata)
            keep(batch, staging: staging, plan: plan, input: input, preset: preset, in: try folder())
            return batch
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Requests already composed (an eval run's, `id` and body each) as a batch, kept as `submit` keeps its own.
    func submit(
        bodies: [(id: String, body: JSONObject)], input: String, preset: String?, metadata: [String: String]
    ) async throws -> BatchObject {
        guard bodies.count <= BatchComposer.requestLimit else {
            throw ConsoleError(
                "\(bodies.count) calls; a batch takes at most \(BatchComposer.requestLimit)", exitStatus: .usage)
        }
        let staging = try folder().appendingPathComponent("upload-\(UUID().uuidString.lowercased()).jsonl").path
        var plan = BatchComposer.Plan(path: staging)
        let writer = try BatchLineWriter(path: staging)
        for (index, item) in bodies.enumerated() {
            plan.bytes += try writer.write(
                ["custom_id": .string(item.id), "method": "POST", "url": "/v1/responses", "body": .object(item.body)])
            plan.lines.append((item.id, index + 1))
            plan.requests += 1
        }
        try writer.close()
        guard plan.bytes <= BatchComposer.byteLimit else {
            unlink(staging)
            throw ConsoleError(
                "the calls make \(ByteSize.text(plan.bytes)); a batch takes at most 200 MB", exitStatus: .usage)
        }
        return try await create(plan, staging: staging, input: input, preset: preset, metadata: metadata)
    }

    /// Keeps the composed input as `BATCH.jsonl`, its MCP tools' headers and authorization redacted (they were
    /// filled from the environment for the server; what is kept is for matching results, which needs none of
    /// them), and the record as `BATCH.json`. The staging file is removed. A server id that cannot name a file,
    /// or one this console keeps for another server, keeps nothing and is said.
    private func keep(
        _ batch: BatchObject, staging: String, plan: BatchComposer.Plan, input: String, preset: String?, in folder: URL
    ) {
        defer { unlink(staging) }
        guard let stem = Self.fileStem(batch.id) else {
            context.diagnostics.write(
                "warning: the server's batch id is not a file name; its results cannot be matched to lines\n")
            return
        }
        if let kept = record(of: batch.id), kept.baseURL != context.configuration.baseURL {
            context.diagnostics.write(
                "warning: a batch \(batch.id) of \(kept.baseURL) is kept already; this one's results cannot be matched "
                    + "to lines\n")
            return
        }
        let record = Record(
            id: batch.id, input: input, preset: preset, provider: context.providerName,
            baseURL: context.configuration.baseURL, lines: plan.lines.map { ($0.id, $0.line) })
        do {
            try Self.copyRedacted(staging, to: folder.appendingPathComponent(stem + ".jsonl").path)
            try PrivateFile.write(
                Array((record.json.compactString + "\n").utf8), to: folder.appendingPathComponent(stem + ".json").path,
                replacing: true)
        } catch {
            context.diagnostics.write("warning: the batch's record could not be kept: \(error)\n")
        }
    }

    /// The composed requests at `source` written to `destination` (0600, replaced) with each body's MCP secrets
    /// replaced, a line at a time.
    static func copyRedacted(_ source: String, to destination: String) throws {
        var reader = try LineReader(path: source)
        let writer = try BatchLineWriter(path: destination)
        while let bytes = try reader.next() {
            guard case .object(var line)? = try? JSONValue.parse(Array(bytes)), let body = line["body"] else {
                continue
            }
            let redacted = Redactor.redactingMCPSecrets(body.serialized())
            line["body"] = (try? JSONValue.parse(redacted)) ?? body
            _ = try writer.write(.object(line))
        }
        try writer.close()
    }

    /// `1 request`, `10,000 requests`.
    static func requests(_ count: Int) -> String {
        "\(SessionSpending.number(count)) request" + (count == 1 ? "" : "s")
    }

    /// What the batch will cost at the batch price, model by model: input tokens estimated from the text, output
    /// bounded only where every request sets `max_output_tokens`.
    static func estimate(_ plan: BatchComposer.Plan, prices: PriceTable = .shipped) -> String {
        var lines = [
            "\(Self.requests(plan.requests)), \(ByteSize.text(plan.bytes)); estimated at the batch "
                + "price (half the standard price):"
        ]
        var total = 0.0
        var priced = true
        for (model, load) in plan.models.sorted(by: { $0.key < $1.key }) {
            var line =
                "  \(model): \(Self.requests(load.requests)), "
                + "~\(SessionSpending.number(load.estimatedInputTokens)) input tokens (4 bytes of text a token)"
            guard let price = prices.price(for: model) else {
                lines.append(line + "; no price for \(model) in the price table")
                priced = false
                continue
            }
            let discount = PriceTable.batchDiscount
            let input = Double(load.estimatedInputTokens) * price.input * discount / 1_000_000
            total += input
            line += " ~\(SessionSpending.dollars(input))"
            if let output = load.maximumOutputTokens {
                let most = Double(output) * price.output * discount / 1_000_000
                total += most
                line += "; output at most \(SessionSpending.number(output)) tokens, ≤ \(SessionSpending.dollars(most))"
            } else {
                line += "; output $\(CostEstimate.rate(price.output * discount)) per 1M tokens (not bounded)"
            }
            lines.append(line)
        }
        if priced, plan.models.count > 1 { lines.append("  total ~\(SessionSpending.dollars(total))") }
        return lines.joined(separator: "\n") + "\n"
    }
}
