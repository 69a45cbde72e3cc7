import Foundation
import Inspector
import ResponsesAPI
import Workbench

/// `inspect replay ID [--set KEY=VALUE]`: sends a recorded request again — the exact body, or the body
/// with some fields changed — to the same endpoint, renders the answer, and records the new exchange
/// linked to the original (`replay_of`).
public struct ReplayRunner: Sendable {
    let context: ConsoleContext

    public init(context: ConsoleContext) {
        self.context = context
    }

    public func run(id: Int64, changes: [String], toProvider provider: String? = nil, readsLocal: Bool = false) async
        -> ExitStatus
    {
        guard let store = await context.recorder?.openedStore() else {
            context.diagnostics.write("error: the inspector store is not available, so there is nothing to replay\n")
            return .usage
        }
        let detail: ExchangeDetail
        // The exchange the link points to in this machine's store: `id`, or for a team store's exchange the
        // local id it was recorded under here (none when another machine recorded it).
        var linked: Int64? = id
        let fromTeam: Bool
        let before = (try? await store.lastExchangeID()) ?? 0
        do {
            if !readsLocal, let found = try await teamExchange(id, local: store) {
                detail = found.detail
                linked = found.localID
                fromTeam = true
            } else {
                guard let found = try await store.exchange(id: id) else {
                    context.diagnostics.write("error: no exchange \(id) in \(store.path)\n")
                    return .usage
                }
                detail = found
                fromTeam = false
            }
        } catch let error as any UserFacingError {
            return ErrorReport.write(error, to: context.diagnostics)
        } catch {
            context.diagnostics.write("error: cannot read exchange \(id): \(error)\n")
            return .apiError
        }
        var body = detail.requestBody
        if !changes.isEmpty {
            do {
                body = try Self.apply(changes, to: body)
            } catch {
                return ErrorReport.write(error, to: context.diagnostics)
            }
        }
        guard let (baseURL, path) = Self.split(detail.summary.url) else {
            context.diagnostics.write(
                "error: exchange \(id) went to \(detail.summary.url); replay knows /responses and /conversations endpoints\n"
            )
            return .usage
        }
        // To the provider the exchange went to, with its key (a context made for it when it is not this
        // command's); to another (`--provider`): the context's own client, made for that provider.
        var made: ConsoleContext?
        if provider == nil, let recorded = detail.summary.provider, recorded != context.providerName {
            do {
                made = try context.forProvider(recorded)
            } catch {
                context.diagnostics.write(
                    "error: exchange \(id) went to provider \(recorded), which cannot be used now: \(error.message); --provider NAME sends it to another\n"
                )
                return error.exitStatus
            }
            context.diagnostics.write(
                "note: exchange \(id) went to provider \(recorded); replaying it there, with its key\n")
        }
        let target = made ?? context
        // Another machine's row names the URL it went to: never where this machine's key is sent. A team store's
        // exchange goes to the provider's own base URL here, its path alone taken from the row.
        let client = provider == nil && !fromTeam ? target.client(baseURL: baseURL) : target.client
        if fromTeam, baseURL != target.configuration.baseURL {
            context.diagnostics.write(
                "note: exchange \(id) went to \(baseURL); replaying it at \(target.configuration.baseURL), this machine's\n"
            )
        }
        var exchangeContext = ExchangeContext(
            preset: detail.summary.preset, session: detail.summary.session, replayOf: linked)
        if provider == nil { exchangeContext.labels["provider"] = detail.summary.provider }
        let streamed = (try? JSONValue.parse(body))?["stream"]?.boolValue == true || detail.summary.streamed
        var renderer = TurnRenderer(output: context.output)
        var status = ExitStatus.success
        if streamed {
            let outcome = await TurnRunner(client: client).replay(
                method: detail.summary.method, path: path, body: body, context: exchangeContext, renderer: &renderer)
            renderer.finishLine()
            if let error = outcome.error {
                ErrorReport.write(error, to: context.diagnostics)
                status = .apiError
            } else {
                status = outcome.exitStatus
            }
        } else {
            do {
                let (json, _) = try await client.send(
                    method: detail.summary.method, path: path, body: body.isEmpty ? nil : body, context: exchangeContext
                )
                if json["object"]?.stringValue == "response" {
                    renderer.render(response: Response(json: json))
                } else {
                    context.output.write(json.prettyPrinted() + "\n")
                }
            } catch {
                ErrorReport.write(error, to: context.diagnostics)
                status = .apiError
            }
        }
        renderer.finishLine()
        // The made context's shutdown waits for its recording.
        if let made { await made.shutdown() }
        await context.recorder?.waitUntilIdle()
        if fromTeam {
            await reportTeamReplay(of: id, local: store, after: before)
        } else if let replay = try? await store.latestReplay(of: id) {
            context.diagnostics.write("recorded as exchange \(replay) (replay of \(id))\n")
        }
        return status
    }

    /// `KEY=VALUE` changes on the JSON body: KEY is a dotted path (`reasoning.effort`), VALUE is JSON when
    /// it parses as JSON (`0.7`, `true`, `{"a":1}`), else a string; `KEY=` with nothing removes the field.
    static func apply(_ changes: [String], to body: [UInt8]) throws(ConsoleError) -> [UInt8] {
        guard case .object(var object) = (try? JSONValue.parse(body)) ?? .null else {
            throw ConsoleError("the recorded request body is not a JSON object, so --set cannot change it")
        }
        for change in changes {
            guard let equals = change.firstIndex(of: "="), equals != change.startIndex else {
                throw ConsoleError("--set \(change): write KEY=VALUE (for example --set temperature=0.2)")
            }
            let path = change[..<equals].split(separator: ".").map(String.init)
            let text = String(change[change.index(after: equals)...])
            let value: JSONValue? = text.isEmpty ? nil : ((try? JSONValue.parse(text)) ?? .string(text))
            object = PayloadBuilder.setting(path[...], to: value, in: object)
        }
        return JSONValue.object(object).serialized()
    }

    /// `http://host/v1/responses/abc?x` → (`http://host/v1`, `/responses/abc?x`).
    static func split(_ url: String) -> (String, String)? {
        for marker in ["/responses", "/conversations"] {
            if let range = url.range(of: marker, options: .backwards) {
                return (String(url[..<range.lowerBound]), String(url[range.lowerBound...]))
            }
        }
        return nil
    }
}
