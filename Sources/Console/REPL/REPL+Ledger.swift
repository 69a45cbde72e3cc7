import Foundation
import Inspector
import ResponsesAPI

/// `/ledger [list [TYPE] | verify | gc AGE [--dry-run]]`: the objects recorded exchanges left on servers, as
/// `openresponses ledger` shows them, for this console's server. `gc` asks at the prompt first.
extension REPL {
    func ledgerCommand(_ words: [String]) {
        let runner = LedgerRunner(context: context)
        switch (words.first, words.count) {
        case (nil, _), ("list", 1):
            _ = bridge.run { await runner.list(LedgerRunner.Filter(), json: false) }
        case ("list", 2):
            let filter = LedgerRunner.Filter(type: words[1])
            _ = bridge.run { await runner.list(filter, json: false) }
        case ("verify", 1):
            _ = bridge.run { await runner.verify(LedgerRunner.Filter()) }
        case ("gc", let count) where count == 2 || (count == 3 && words[2] == "--dry-run"):
            let cutoff: Date
            do { cutoff = try TimeArgument.parse(words[1], flag: "/ledger gc", now: context.environment.now()) } catch {
                ErrorReport.write(error, to: context.diagnostics)
                return
            }
            let dryRun = words.count == 3
            let ask = askAtPrompt()
            _ = bridge.run {
                await runner.gc(LedgerRunner.Filter(createdBefore: cutoff), dryRun: dryRun, ask: dryRun ? nil : ask)
            }
        default:
            context.diagnostics.write("usage: /ledger [list [TYPE] | verify | gc AGE [--dry-run]]\n")
        }
    }
}
