import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// `openresponses jobs` and `openresponses cancel`: the background responses this console created (the
/// ledger's stored responses whose request said `background: true`), with their status asked of the
/// server, and a job cancelled on the server.
public struct JobsRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    /// One background response: what the ledger and the inspector know, and its status now.
    struct Job {
        var id: String
        var createdAt: Date
        var model: String?
        var preset: String?
        var input: String
        var status: String
        var server: String
        var provider: String

        var json: JSONValue {
            [
                "id": .string(id), "status": .string(status),
                "created_at": .string(InspectorStore.timestamp(createdAt)),
                "model": model.map(JSONValue.string) ?? .null, "preset": preset.map(JSONValue.string) ?? .null,
                "input": .string(input), "server": .string(server), "provider": .string(provider),
            ]
        }
    }

    /// Without `all`: the jobs still queued or in progress, and those created in the last 24 hours.
    public func list(all: Bool, json: Bool) async -> ExitStatus {
        // Nothing recorded yet: no job either.
        guard FileManager.default.fileExists(atPath: context.environment.inspectorPath) else {
            context.output.write(json ? "[]\n" : Self.table([], now: context.environment.now(), all: all))
            return .success
        }
        // Contexts for the other providers' jobs, made on first use and shut down at the end.
        var contexts: [String: ConsoleContext] = [:]
        let exit: ExitStatus
        do {
            let store = try ConsoleContext.openStore(environment: context.environment, diagnostics: context.diagnostics)
            let (entries, unreadable) = try await store.readLedger(type: LedgerEntry.Kind.response.rawValue)
            LedgerRunner.note(unreadable: unreadable, on: context.diagnostics)
            var jobs: [Job] = []
            let now = context.environment.now()
            for entry in entries {
                guard let exchangeID = entry.exchangeId,
                    let (summary, body) = try await store.request(ofExchange: exchangeID),
                    let request = try? JSONValue.parse(body), request["background"]?.boolValue == true
                else { continue }
                // Asked of the server the job was created on, with that provider's key.
                var status: String
                switch client(for: entry, contexts: &contexts) {
                case .unusable(let reason):
                    status = reason
                case .client(let client):
                    do {
                        status = try await client.retrieve(id: entry.objectId).status?.rawValue ?? "unknown"
                    } catch  where error.status == 404 {
                        status = "gone"
                    } catch {
                        status = "unknown (\(error.message))"
                    }
                }
                let running = ["queued", "in_progress"].contains(status)
                guard all || running || now.timeIntervalSince(entry.createdAt) < 24 * 3600 else { continue }
                jobs.append(
                    Job(
                        id: entry.objectId, createdAt: entry.createdAt, model: summary.model,
                        preset: entry.preset ?? summary.preset,
                        input: Self.firstWords(of: request["input"]), status: status, server: entry.baseUrl,
                        provider: entry.provider ?? ProviderCatalog.defaultName))
            }
            if json {
                context.output.write(JSONValue.array(jobs.map(\.json)).prettyPrinted() + "\n")
            } else {
                context.output.write(Self.table(jobs.reversed(), now: now, all: all))
            }
            exit = .success
        } catch let error as ConsoleError {
            ErrorReport.write(error, to: context.diagnostics)
            exit = error.exitStatus
        } catch {
            context.diagnostics.write("error: cannot read the ledger: \(error)\n")
            exit = .apiError
        }
        for other in contexts.values { await other.shutdown() }
        return exit
    }

    /// `attach ID`: a finished job's answer, or a running job's stream resumed after the last event the
    /// inspector recorded of it (`starting_after`), so only what was not shown is rendered. Ctrl-C detaches:
    /// the job goes on on the server.
    /// Unless `pinned` (`--provider` given), the job's own provider, as the ledger names it, is asked.
    public func attach(id: String, pinned: Bool = false) async -> ExitStatus {
        await onJobServer(id, pinned: pinned) { await $0.attachHere(id: id) }
    }

    func attachHere(id: String) async -> ExitStatus {
        var shown: [ResponseStreamEvent] = []
        if FileManager.default.fileExists(atPath: context.environment.inspectorPath) {
            do {
                let store = try ConsoleContext.openStore(
                    environment: context.environment, diagnostics: context.diagnostics)
                shown = try await store.recordedStreamEvents(responseID: id).compactMap { stored in
                    try? ResponseStreamEvent(ServerSentEvent(event: nil, data: stored.data, id: nil, retry: nil))
                }
            } catch {
                context.diagnostics.write(
                    "note: the inspector could not say what was shown of \(id) (\(error)); its stream is shown from the start\n"
                )
            }
        }
        let after = shown.compactMap(\.sequenceNumber).max()
        let options = RenderOptions.forTerminal(
            fd: 1, environment: context.environment, settings: TurnSettings(model: ""))
        var renderer = TurnRenderer(output: context.output, options: options)
        // The text already shown counts as shown: the final events add only what follows it.
        for event in shown { if case .outputTextDelta(let delta) = event.kind { renderer.markShown(delta) } }
        do throws(any Error) {
            let response = try await context.client.retrieve(id: id)
            let status = response.status ?? .completed
            if ![ResponseStatus.queued, .inProgress].contains(status) {
                renderer.render(response: response)
                renderer.finish(response: response)
                context.diagnostics.write("\(id) is \(status.rawValue).\n")
                return status == .completed ? .success : .apiError
            }
            context.diagnostics.write(
                "Attached to \(id) (\(status.rawValue))" + (after.map { ", after event \($0)" } ?? "")
                    + "; Ctrl-C detaches, `openresponses cancel \(id)` cancels.\n")
            var final: Response?
            for try await event in context.client.resume(id: id, startingAfter: after) {
                renderer.render(event)
                if event.isTerminal { final = event.response }
            }
            renderer.finish(response: final)
            if let final, final.status != .completed {
                context.diagnostics.write("\(id) ended \(final.status?.rawValue ?? "without a status").\n")
                return .apiError
            }
            return .success
        } catch  where (error as? ResponsesAPIError)?.code == .cancelled || error is CancellationError {
            renderer.finishLine()
            context.diagnostics.write(
                "Detached from \(id); it goes on on the server (openresponses attach \(id) to come back).\n")
            return .interrupted
        } catch {
            renderer.finishLine()
            context.diagnostics.write("error: cannot attach to \(id): \(error)\n")
            return (error as? ResponsesAPIError)?.code == .configuration ? .usage : .apiError
        }
    }

    /// `POST /responses/{id}/cancel`.
    public func cancel(id: String, json: Bool, pinned: Bool = false) async -> ExitStatus {
        await onJobServer(id, pinned: pinned) { await $0.cancelHere(id: id, json: json) }
    }

    func cancelHere(id: String, json: Bool) async -> ExitStatus {
        do {
            let response = try await context.client.cancel(id: id)
            if json {
                context.output.write(response.json.prettyPrinted() + "\n")
            } else {
                context.output.write("Cancelled \(id) (status: \(response.status?.rawValue ?? "unknown")).\n")
            }
            return .success
        } catch {
            context.diagnostics.write("error: cannot cancel \(id): \(error)\n")
            return error.code == .cancelled ? .interrupted : error.code == .configuration ? .usage : .apiError
        }
    }

    static func table(_ jobs: [Job], now: Date, all: Bool) -> String {
        guard !jobs.isEmpty else {
            return all
                ? "No background jobs: ask --set background=true, or /set background true in the console, starts one.\n"
                : "No background job running or started in the last 24 hours (jobs --all lists every one).\n"
        }
        // The provider column only when a job went to a named provider.
        let named = jobs.contains { $0.provider != ProviderCatalog.defaultName }
        var rows = [["ID", "STATUS", "AGE", "MODEL", "PRESET"] + (named ? ["PROVIDER"] : []) + ["INPUT"]]
        for job in jobs {
            rows.append(
                [job.id, job.status, age(now.timeIntervalSince(job.createdAt)), job.model ?? "-", job.preset ?? "-"]
                    + (named ? [job.provider] : []) + [job.input])
        }
        return InspectorPresenter.render(rows)
    }

    /// 42s, 5m, 3h, 2d.
    static func age(_ seconds: TimeInterval) -> String {
        let value = max(0, Int(seconds))
        return switch value {
        case ..<60: "\(value)s"
        case ..<3600: "\(value / 60)m"
        case ..<86400: "\(value / 3600)h"
        default: "\(value / 86400)d"
        }
    }

    /// The first words of a request's input (its text, or the first message's text), about 40 characters.
    static func firstWords(of input: JSONValue?) -> String {
        var text = input?.stringValue ?? ""
        if text.isEmpty, let items = input?.arrayValue {
            for item in items {
                if let content = item["content"]?.stringValue {
                    text = content
                    break
                }
                if let part = item["content"]?.arrayValue?.first(where: { $0["text"] != nil })?["text"]?.stringValue {
                    text = part
                    break
                }
            }
        }
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.count > 40 ? String(words.prefix(39)) + "…" : words
    }
}
