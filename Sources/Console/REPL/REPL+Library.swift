import Foundation
import Library
import ResponsesAPI
import Untrusted
import Workbench

/// What the console knows of the local library during a session.
struct LibraryState {
    enum Mode: String { case off, on, offline }
    /// Whether a model can be asked (a key for OpenAI's API, or another server).
    var hasProvider: Bool
    var mode: Mode
    /// The document turns are scoped to (`/doc`), as a full path.
    var document: String?
    /// The passages behind the last answer, numbered as its footnotes (`/sources`).
    var sources: [TurnSource] = []
    /// The last answer when it came from the library, with the passages its `[n]` point to (`/verify`); nil
    /// after a turn to the model alone.
    var checkable: (answer: String, sources: [TurnSource])?

    init(hasProvider: Bool) {
        self.hasProvider = hasProvider
        mode = hasProvider ? .off : .offline
    }

    /// Plain lines are answered from the library without a model.
    var answersOffline: Bool { mode == .offline || (!hasProvider && mode != .off) }
    var filter: LibraryStore.SearchFilter { LibraryStore.SearchFilter(document: document) }
}

/// `/library`, `/doc`, `/sources`, and turns answered from the library.
extension REPL {
    var libraryRunner: LibraryRunner {
        LibraryRunner(
            CommandIO(environment: context.environment, output: context.output, diagnostics: context.diagnostics))
    }

    func libraryCommand(_ text: String) {
        switch text {
        case "": break
        case "on":
            guard library.hasProvider else {
                context.diagnostics.write(
                    "there is no model to send passages to (no OPENAI_API_KEY for \(context.configuration.baseURL)); answers come from the library without one\n"
                )
                return
            }
            library.mode = .on
        case "off": library.mode = .off
        case "offline": library.mode = .offline
        case let text where text == "compare" || text.hasPrefix("compare "):
            compareCommand(String(text.dropFirst("compare".count)).trimmingCharacters(in: .whitespaces))
            return
        default:
            context.diagnostics.write("usage: /library on|off|offline, or /library compare [--store ID] QUERY\n")
            return
        }
        let scope = library.document.map { ", scoped to \($0)" } ?? ""
        let message =
            switch library.mode {
            case .on:
                "Library on: each turn sends the best passages of your documents to the model, cited as [n]\(scope).\n"
            case .offline: "Library offline: questions are answered from your documents without a model\(scope).\n"
            case .off:
                library.hasProvider
                    ? "Library off: turns go to the model alone.\n"
                    : "Library off; with no model, turns fail until you add a key (/library offline answers from documents).\n"
            }
        context.output.write(message)
    }

    /// `/library compare [--store ID] QUERY`: the rankings side by side, as `library compare` prints them.
    func compareCommand(_ text: String) {
        var words = text.split(separator: " ").map(String.init)
        var storeID: String?
        if words.first == "--store", words.count >= 2 {
            storeID = words[1]
            words.removeFirst(2)
        }
        guard !words.isEmpty else {
            context.diagnostics.write("usage: /library compare [--store ID] QUERY\n")
            return
        }
        let options = sessionLibraryOptions ?? LibraryOptions()
        let runner = libraryRunner
        let query = words.joined(separator: " ")
        let store = storeID
        _ = bridge.run { await runner.compare(query, storeID: store, k: 10, options: options) }
    }

    /// `/doc PATH`: adds the document if needed and scopes the following turns to it; alone, says the scope;
    /// `/doc off` clears it.
    func docCommand(_ text: String) {
        switch text {
        case "":
            context.output.write(
                library.document.map { "Turns are scoped to \($0) (/doc off clears it).\n" }
                    ?? "No document scope (/doc PATH picks one).\n")
        case "off":
            library.document = nil
            context.output.write("No document scope: turns search the whole library.\n")
        default:
            let path = URL(
                fileURLWithPath: text,
                relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            )
            .standardizedFileURL.path
            guard let options = sessionLibraryOptions else { return }
            let runner = libraryRunner
            let (status, _) = bridge.run { await runner.add([path], options: options) }
            guard status == .success else { return }
            library.document = path
            if library.mode == .off { library.mode = library.hasProvider ? .on : .offline }
            context.output.write(
                "Following turns are about \((path as NSString).lastPathComponent) (/doc off to search everything).\n")
        }
    }

    /// `/sources`: the full text of the passages behind the last answer, numbered as its footnotes.
    func sourcesCommand() {
        guard !library.sources.isEmpty else {
            context.output.write("No passages yet: ask something with the library on (/library on|offline).\n")
            return
        }
        for (index, hit) in library.sources.enumerated() {
            context.output.write("[\(index + 1)] \(hit.location)\n\(hit.text)\n\n")
        }
    }

    /// The session's `library.*` settings as options; nil (and said) when one is out of range.
    var sessionLibraryOptions: LibraryOptions? {
        do {
            return try LibraryOptions(settings.library, source: "the session's library.* settings (/settings)")
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
            return nil
        }
    }

    /// Library turns: the session's passages within the `/doc` scope, embedded through the console's client.
    func libraryAugmenter() -> LibraryAugmenter? {
        guard let options = sessionLibraryOptions else { return nil }
        return libraryRunner.augmenter(options, filter: library.filter, client: context.client)
    }

    /// A question answered from the library without a model.
    func answerFromLibrary(_ question: String) {
        guard let augmenter = libraryAugmenter() else { return }
        let (result, _) = bridge.run { () async -> Result<LibraryTurn, any Error> in
            do { return .success(try await augmenter.turn(question)) } catch { return .failure(error) }
        }
        let turn: LibraryTurn
        switch result {
        case .success(let found): turn = found
        case .failure(let error):
            ErrorReport.write(error, to: context.diagnostics)
            return
        }
        if let notice = turn.notice { context.diagnostics.write("note: \(notice)\n") }
        guard !turn.hits.isEmpty else {
            context.output.write(
                "Nothing in your library matches that (openresponses library add PATH adds documents; /doc PATH adds one and asks about it).\n"
            )
            return
        }
        let colors = RenderOptions.forTerminal(fd: 1, environment: context.environment, settings: settings).colors
        let answer = turn.withoutModel
        library.sources = answer.sources.map { TurnSource(location: $0.location, text: $0.text) }
        // "None of them shares a word with the question" cites nothing: nothing to check.
        library.checkable = (answer.text, answer.text.contains("[1]") ? library.sources : [])
        context.output.write(LibraryRunner.extractiveNotice(color: colors))
        context.output.write(answer.text)
    }

    /// A turn with the library on: the session sends it with its passages as numbered context
    /// (`LibraryAugmenter`); the answer's `[n]` become footnotes.
    func libraryTurn(_ question: String) {
        guard let augmenter = libraryAugmenter() else { return }
        session.augmenter = augmenter
        let outcome = send(.string(question))
        session.augmenter = nil
        guard let outcome else { return }
        if !outcome.sources.isEmpty { library.sources = outcome.sources }
        library.checkable = (outcome.text, outcome.error == nil ? outcome.sources : [])
        context.output.write(outcome.footnotes)
    }
}
