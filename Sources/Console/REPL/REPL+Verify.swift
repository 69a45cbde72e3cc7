import Foundation
import Library
import Workbench

/// `/verify`: the last answer's sentences checked against the passages they cite, as `library ask --verify`
/// checks them (`CitationVerifier`, through `LibraryRunner.verification`).
extension REPL {
    func verifyCommand(_ words: [String]) {
        guard words.isEmpty || words == ["--verbose"] else {
            context.diagnostics.write("usage: /verify [--verbose]\n")
            return
        }
        guard let checkable = library.checkable else {
            context.output.write(
                lastOutcome?.text.isEmpty == false
                    ? "The last answer came from the model alone: it has no sources to check against (/library on answers from your documents, with citations).\n"
                    : "No answer to check yet: ask something with the library on (/library on|offline), then /verify.\n"
            )
            return
        }
        guard !checkable.sources.isEmpty else {
            context.output.write("The last answer cites no passage: there is nothing to check it against.\n")
            return
        }
        guard let options = sessionLibraryOptions else { return }
        let runner = libraryRunner
        let (report, _) = bridge.run {
            await runner.verification(checkable.answer, sources: checkable.sources.map(\.text), options: options)
        }
        guard let report else { return }
        context.output.write(
            String(LibraryRunner.verificationBlock(report, verbose: words == ["--verbose"]).dropFirst()))
    }
}
