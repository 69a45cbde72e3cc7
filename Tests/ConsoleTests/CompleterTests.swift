import Inspector
import Testing
import Workbench

@testable import Console
@testable import openresponses

/// Tab completion's candidates, from the settings registry, the preset names and the command line's subcommands
/// (the executable's table, as `chat` hands it to the console).
@Suite("Completion")
struct CompleterTests {
    let completer = Completer(
        presetNames: { ["deep-reasoning", "default", "doc-qa"] }, storeIDs: { ["vs_1"] }, subcommands: .commandLine)

    @Test(
        "candidates",
        arguments: [
            ("", "/pre", ["/preset"]),
            ("", "/s", ["/save", "/set", "/settings", "/sources", "/stores", "/stream"]),
            ("/stores ", "u", ["use", "update"]),
            ("/stores use ", "vs", ["vs_1"]),
            ("/files ", "d", ["download", "delete"]),
            ("", "/re", ["/reset", "/resume", "/retry"]),
            ("/mode ", "st", ["stored", "stateless"]),
            ("", "hello", []),
            ("/preset ", "u", ["use"]),
            ("/preset use ", "de", ["deep-reasoning", "default"]),
            ("/preset diff default ", "do", ["doc-qa"]),
            ("/preset save ", "d", []),
            ("/set ", "reasoning.", ["reasoning.effort", "reasoning.summary"]),
            ("/unset ", "meta", ["metadata."]),
            ("/set reasoning.effort ", "m", ["minimal", "medium", "max"]),
            ("/set store ", "", ["true", "false"]),
            ("/set temperature ", "", []),
            ("/stream ", "o", ["on", "off"]),
        ])
    func candidates(_ before: String, _ word: String, _ expected: [String]) {
        #expect(completer.candidates(before: before, word: word) == expected)
    }

    /// `/model` offers the config file's aliases, then the price table's model ids (an id that is also an alias once).
    @Test func modelOffersTheAliasesThenThePriceTablesModels() throws {
        let prices = try PriceTable(
            json: Array(
                #"{"models": {"gpt-4.1": {"input": 2, "output": 8}, "gpt-4.1-mini": {"input": 0.4, "output": 1.6}}}"#
                    .utf8))
        let models = Completer.models(aliases: ModelAliases(["fast": "gpt-4.1-mini", "gpt-4.1": "o3"]), prices: prices)
        let completer = Completer(presetNames: { [] }, models: { models })
        #expect(completer.candidates(before: "/model ", word: "f") == ["fast"])
        #expect(completer.candidates(before: "/model ", word: "") == ["fast", "gpt-4.1", "gpt-4.1-mini"])
        #expect(completer.candidates(before: "/model fast ", word: "") == [])
        #expect(completer.candidates(before: "", word: "/mod") == ["/mode", "/model"])
    }

    @Test func fileNamesAfterAttach() {
        #expect(Completer.completesFileNames(before: "/attach "))
        #expect(Completer.completesFileNames(before: "/attach a.pdf "))
        #expect(!Completer.completesFileNames(before: "/set "))
    }

    @Test func helpListsEveryCommandTabOffersWithSummariesInOneColumn() throws {
        let lines = REPL.help.split(separator: "\n").map(String.init)
        let usages = lines.filter { $0.hasPrefix("  /") }
        for command in Completer.commands {
            #expect(
                usages.contains {
                    $0.hasPrefix("  \(command) ") || $0 == "  \(command)" || $0.hasPrefix("  \(command)\t")
                },
                "\(command) is not in /help")
        }
        // A summary starts in the same column on every line: after a short usage, or alone under a long one.
        var columns = Set<Int>()
        for (index, line) in lines.enumerated() where line.hasPrefix("  /") {
            if let gap = line.range(of: "  ", range: line.index(line.startIndex, offsetBy: 2)..<line.endIndex) {
                let start = line[gap.upperBound...].prefix { $0 == " " }.count
                columns.insert(line.distance(from: line.startIndex, to: gap.upperBound) + start)
            } else {
                try #require(
                    lines.indices.contains(index + 1), "\(line) is the last line of /help: its summary is missing")
                let next = lines[index + 1]
                columns.insert(next.prefix { $0 == " " }.count)
            }
        }
        #expect(columns.count == 1, "summaries start in columns \(columns.sorted())")
    }
}

/// Each console command is declared once: whatever Tab offers is in `/help` and completes from its first
/// letters, and whatever `/help` lists is a command Tab offers.
@Suite("Console commands declared once")
struct CommandDeclarationTests {
    let completer = Completer(presetNames: { [] })

    @Test func everyCommandIsInHelpAndCompletes() {
        let help = REPL.help
        #expect(Completer.commands.count >= 20)
        for command in Completer.commands {
            #expect(help.contains("\n  \(command)"), "\(command) is not in /help")
            let typed = String(command.prefix(3))
            #expect(
                completer.candidates(before: "", word: typed).contains(command),
                "\(typed) does not complete to \(command)")
        }
        let listed = Set(
            help.split(separator: "\n").filter { $0.hasPrefix("  /") }
                .map { String($0.dropFirst(2).prefix { $0 != " " }) })
        #expect(listed == Set(Completer.commands))
    }
}
