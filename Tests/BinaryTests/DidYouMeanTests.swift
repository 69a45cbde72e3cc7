import Foundation
import TestSupport
import Testing

/// A mistyped subcommand is named as one with the closest real one, at the top and under a command; a mistyped
/// flag gets ArgumentParser's own suggestion, the same whether `ask` was parsed on its own or with the whole tree.
@Suite("did you mean")
struct DidYouMeanTests {
    let environment = ["PATH": "/usr/bin:/bin", "OPENAI_API_KEY": "sk-x", "OPENRESPONSES_INSPECTOR": "off"]

    func run(_ arguments: [String]) async throws -> Subprocess.Result {
        try await Subprocess.run(Subprocess.openresponsesBinary, arguments, environment: environment)
    }

    @Test func aMistypedSubcommandIsSuggested() async throws {
        let top = try await run(["inspct"])
        #expect(top.status == 2)
        #expect(
            top.stderr == """
                error: unknown command 'inspct' — did you mean 'inspect'?
                Usage: openresponses <subcommand>
                  See 'openresponses --help' for the commands.

                """)
        #expect(top.stdout.isEmpty)
        let nested = try await run(["inspect", "lsit"])
        #expect(nested.status == 2)
        #expect(nested.stderr.hasPrefix("error: unknown command 'lsit' — did you mean 'list'?\n"), "\(nested.stderr)")
        #expect(nested.stderr.contains("Usage: openresponses inspect <subcommand>"))
        // Under a command whose default subcommand takes no argument, and with nothing close.
        let defaulted = try await run(["presets", "lsit"])
        #expect(defaulted.stderr.hasPrefix("error: unknown command 'lsit' — did you mean 'list'?\n"))
        let far = try await run(["weather"])
        #expect(far.status == 2)
        #expect(far.stderr.hasPrefix("error: unknown command 'weather'\nUsage: openresponses <subcommand>\n"))
    }

    @Test func aMistypedFlagGetsArgumentParsersSuggestion() async throws {
        for arguments in [["ask", "--modle", "x", "hi"], ["chat", "--modle", "x"]] {
            let result = try await run(arguments)
            #expect(result.status == 64, "ArgumentParser's usage status, as for any unknown option")
            #expect(result.stderr.hasPrefix("Error: Unknown option '--modle'. Did you mean '--model'?\n"))
            #expect(result.stderr.contains("Usage: openresponses \(arguments[0])"))
            #expect(result.stderr.contains("See 'openresponses \(arguments[0]) --help'"), "\(result.stderr)")
        }
    }
}
