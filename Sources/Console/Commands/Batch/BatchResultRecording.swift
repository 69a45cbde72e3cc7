import Foundation
import Inspector
import ResponsesAPI

/// A batch's results handed to the inspector as exchanges of the batch (`batch_id`, the request's
/// `custom_id`, source `batch`, the batch's provider and preset), each with its request's body, the server's
/// status and answer, its usage and cost at the batch price. Results the store already has are left out; a
/// few are written at once, up to `bytesInFlight` of bodies.
struct BatchResultRecording {
    let recorder: ExchangeRecorder?
    let batch: BatchObject
    let preset: String?
    /// Labels besides the batch's (an `eval` run's).
    let labels: [String: String]
    let provider: String
    let url: String
    /// The key, never stored: a result's request body is redacted as a sent one is.
    let secrets: [String]
    private var recorded: Set<String>
    private var inFlight: [(task: Task<Void, Never>, bytes: Int)] = []
    private var count = 0

    static let concurrency = 32
    static let bytesInFlight = 64 << 20

    init(context: ConsoleContext, batch: BatchObject, preset: String?, labels: [String: String] = [:]) async {
        recorder = context.recorder
        self.batch = batch
        self.preset = preset
        self.labels = labels
        provider = context.providerName
        url = context.configuration.baseURL + "/responses"
        secrets = context.configuration.apiKey.map { [$0] } ?? []
        let store = await recorder?.openedStore()
        recorded = (try? await store?.recordedBatchRequests(batchID: batch.id)) ?? []
    }

    /// The result's cost at the batch price; nil when its model or usage is unknown.
    static func cost(of result: BatchResultLine) -> Double? {
        let outcome = result.outcome
        return PriceTable.shipped.cost(model: outcome.model, usage: outcome.usage, batch: true)
    }

    mutating func record(_ result: BatchResultLine, request body: [UInt8]?) async {
        guard let recorder, !recorded.contains(result.customID) else { return }
        var context = ExchangeContext(preset: preset)
        context.labels.merge(labels) { $1 }
        context.labels["batch"] = batch.id
        context.labels["batch_request"] = result.customID
        context.labels["source"] = "batch"
        context.labels["provider"] = provider
        let request = ExchangeRequest(
            startedAt: batch.inProgressAt ?? batch.createdAt ?? Date(), method: "POST", url: url, headers: [],
            body: body ?? [], secrets: secrets, context: context)
        let bytes = result.body.count + (body?.count ?? 0)
        while !inFlight.isEmpty,
            inFlight.count >= Self.concurrency || inFlight.reduce(bytes, { $0 + $1.bytes }) > Self.bytesInFlight
        {
            await inFlight.removeFirst().task.value
        }
        recorded.insert(result.customID)
        let task = Task {
            let recording = await recorder.exchangeWillStart(request)
            if let status = result.statusCode {
                recording.didReceiveHead(
                    ExchangeResponseHead(
                        status: status, headers: result.requestID.map { [("x-request-id", $0)] } ?? [],
                        timeToFirstByte: .zero))
            }
            if !result.body.isEmpty { recording.didReceiveBody(result.body) }
            await recording.didFinish(result.outcome)
        }
        inFlight.append((task, bytes))
        count += 1
    }

    /// Waits for the writes; returns how many results were recorded now.
    mutating func finish() async -> Int {
        for (task, _) in inFlight { await task.value }
        inFlight.removeAll()
        await recorder?.waitUntilIdle()
        return count
    }
}
