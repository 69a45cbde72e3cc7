import Foundation
import ResponsesAPI

/// A conversation with a server, without a terminal: it owns the settings stack and the conversation,
/// composes each request (`PayloadBuilder.compose`), runs it (`TurnRunner`), records the response in the
/// conversation, and, when the response ends in function calls or MCP approval requests, answers them
/// (local handlers, approvals through the delegate) and sends the next request of the same turn, until
/// the model answers. The console's REPL and `ask` both drive one; tests drive it against a loopback
/// server. A value: a turn runs on a copy (`send` is mutating), so a front end that runs it in a task
/// takes the copy back when the task ends.
public struct ChatSession: Sendable {
    public let client: ResponsesClient
    public let environment: AppEnvironment
    public var stack: SettingsStack
    public var conversation: Conversation
    /// The server was found not to keep the conversation (said once per session).
    public var continuityNoticed = false
    /// Runs function handlers (a value, so tests may bound it).
    public var handlers = HandlerRunner()
    /// Whether the final events' long texts that repeat the deltas are decoded (`RepeatedText`). `ask`,
    /// which shows the deltas and keeps nothing, asks for `.omitted`; a stateless conversation decodes
    /// them anyway, since it sends the answer back as input.
    public var repeatedText: RepeatedText = .decoded
    /// What a turn's text becomes before it is composed (the library's passages; nil: sent as typed).
    public var augmenter: (any TurnAugmenter)?
    /// Tools offered besides the settings' own (local MCP servers'; nil: none).
    public var toolSource: (any ToolSource)?
    /// The calls to `toolSource` the turn under way has made.
    var turnToolCalls: [ToolCallRecord] = []

    /// Rounds of tool calls a single turn may go through before the session stops it.
    public static let maximumToolRounds = 10

    public init(
        client: ResponsesClient, environment: AppEnvironment, stack: SettingsStack, conversation: Conversation? = nil
    ) {
        self.client = client
        self.environment = environment
        self.stack = stack
        self.conversation = conversation ?? Conversation(sessionID: UUID().uuidString.lowercased())
    }

    /// The settings of the next request.
    public var settings: TurnSettings { stack.effective }

    /// The next request as it would be sent with `input`, for people to read (`/payload`, `--dry-run`).
    public func preview(_ input: JSONValue) throws(SettingError) -> ComposedRequest {
        try PayloadBuilder().compose(
            settings: settings, conversation: conversation, input: settings.templated(input), for: .display)
    }

    /// One user turn: `input`, then as many tool rounds as the model needs. `renderer` sees every request's
    /// events and is finished after each request (its footnotes and usage line); the delegate approves
    /// tool runs and hears what happened. The outcome is the last request's.
    /// With an `augmenter`, a text input is sent as it makes it (its notes reported through the delegate),
    /// and the outcome carries its sources and the footnotes for the answer.
    public mutating func send<Renderer: TurnRendering>(
        _ input: JSONValue, renderer: inout Renderer, delegate: some ChatSessionDelegate
    ) async -> TurnOutcome {
        var input = settings.templated(input)
        var augmentation: TurnAugmentation?
        if let augmenter, case .string(let text) = input {
            do {
                augmentation = try await augmenter.augment(text)
            } catch {
                return .refused((error as? any UserFacingError)?.userMessage ?? "\(error)", text: renderer.text)
            }
            for note in augmentation?.notes ?? [] { delegate.report(.note(note)) }
            input = .string(augmentation?.input ?? text)
        }
        conversation.beginTurn(input: input)
        var outcome = await follow(input, renderer: &renderer, delegate: delegate)
        if let augmentation {
            outcome.sources = augmentation.sources
            if outcome.error == nil { outcome.footnotes = augmentation.footnotes(outcome.text) }
        }
        return outcome
    }

    /// What `text` is sent as: augmented, with the augmentation's notes (`/payload`, `--dry-run`).
    public func input(for text: String) async throws -> (input: JSONValue, notes: [String]) {
        guard let augmenter else { return (.string(text), []) }
        let augmentation = try await augmenter.augment(text)
        return (.string(augmentation.input), augmentation.notes)
    }

    /// `/retry`: the last user turn again, from the state before it; nil when there is none.
    public mutating func retry<Renderer: TurnRendering>(
        renderer: inout Renderer, delegate: some ChatSessionDelegate
    ) async -> TurnOutcome? {
        // The turn's input as it was sent (already augmented).
        guard let input = conversation.rewindLastTurn() else { return nil }
        conversation.beginTurn(input: input)
        return await follow(input, renderer: &renderer, delegate: delegate)
    }

    mutating func follow<Renderer: TurnRendering>(
        _ firstInput: JSONValue, renderer: inout Renderer, delegate: some ChatSessionDelegate
    ) async -> TurnOutcome {
        var input = firstInput
        var round = 0
        turnToolCalls = []
        while true {
            var outcome = await sendOnce(input, renderer: &renderer, delegate: delegate)
            outcome.toolCalls = turnToolCalls
            guard let response = outcome.response, outcome.error == nil, Self.continues(response) else {
                return outcome
            }
            let followUp = await toolResults(for: response, delegate: delegate)
            outcome.toolCalls = turnToolCalls
            if followUp.isEmpty || Task.isCancelled { return outcome }
            if round == Self.maximumToolRounds {
                delegate.report(.stoppedAfterToolRounds(Self.maximumToolRounds))
                return outcome
            }
            round += 1
            input = .array(followUp)
        }
    }

    /// The labels the inspector keeps of a turn's request (`ExchangeContext+Labels` there).
    func exchangeContext(_ settings: TurnSettings) -> ExchangeContext {
        var labels = ["session": conversation.sessionID]
        labels["preset"] = settings.preset
        return ExchangeContext(labels: labels)
    }

    /// A response the turn can go on from (not incomplete, not failed).
    static func continues(_ response: Response) -> Bool {
        response.status != .incomplete && response.status != .failed
    }

    /// Composes, sends and records one request.
    mutating func sendOnce<Renderer: TurnRendering>(
        _ input: JSONValue, renderer: inout Renderer, delegate: some ChatSessionDelegate
    ) async -> TurnOutcome {
        var settings = self.settings
        if let toolSource {
            let offered = await toolSource.offeredTools()
            for note in offered.notes { delegate.report(.note(note)) }
            if !offered.tools.isEmpty {
                settings.template["tools"] = .array((settings.template["tools"]?.arrayValue ?? []) + offered.tools)
            }
        }
        let composed: ComposedRequest
        do {
            composed = try PayloadBuilder().compose(
                settings: settings, conversation: conversation, input: input, for: .send(environment))
        } catch {
            return .refused(error.message, text: renderer.text)
        }
        for note in composed.notes { delegate.report(.note(note)) }
        let outcome = await TurnRunner(client: client).run(
            composed.request, context: exchangeContext(settings),
            repeatedText: conversation.mode == .stateless ? .decoded : repeatedText,
            renderer: &renderer)
        renderer.finish(response: outcome.error == nil ? outcome.response : nil)
        guard outcome.error == nil else { return outcome }
        conversation.record(input: input, response: outcome.response)
        if let response = outcome.response, !continuityNoticed,
            let notice = Conversation.continuityNotice(request: composed.request, response: response)
        {
            continuityNoticed = true
            delegate.report(.note(notice))
        }
        return outcome
    }

    /// The id of the background response a cancelled turn leaves running on the server (nil when the
    /// turn was not cancelled or its response is not a background one).
    public func detachedJob(_ outcome: TurnOutcome) -> String? {
        let requested = outcome.request?.body["background"]?.boolValue == true
        guard outcome.wasCancelled, let response = outcome.response ?? outcome.partialResponse,
            requested || response.json["background"]?.boolValue == true, !response.id.isEmpty
        else { return nil }
        return response.id
    }

    /// Cancels background response `id` on the server; says what happened.
    public func cancelOnServer(_ id: String) async -> String {
        do {
            _ = try await client.cancel(id: id)
            return "[cancelled \(id) on the server]"
        } catch {
            return "could not cancel \(id) on the server: \(error)"
        }
    }
}
