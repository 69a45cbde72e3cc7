import Foundation
import ResponsesAPI
import Workbench

/// `/files ...` and `/stores ...`: the same subcommands as on the command line; `/stores use ID[,ID...]`
/// turns on file_search with those stores for the following turns, `/stores use none` turns it off, and
/// `/stores` alone shows the active ones. The subcommands are the executable's (`subcommands`), parsed there.
extension REPL {
    func filesCommand(_ arguments: [String], root: String) {
        if root == "stores" {
            switch (arguments.first, arguments.count) {
            case (nil, _):
                let active =
                    settings.value(forKey: "file_search.vector_store_ids")?.arrayValue?.compactMap(\.stringValue) ?? []
                context.output.write(
                    active.isEmpty
                        ? "No vector stores in use (/stores use ID[,ID...] turns on file_search).\n"
                        : "file_search uses: \(active.joined(separator: ", "))\n")
                return
            case ("use", 2):
                if arguments[1] == "none" {
                    stack.session.assign("file_search.vector_store_ids", nil)
                    context.output.write("file_search is off for the following turns.\n")
                } else {
                    let ids = arguments[1].split(separator: ",").map(String.init)
                    stack.session.assign("file_search.vector_store_ids", .array(ids.map(JSONValue.string)))
                    storeIDs.add(ids)
                    context.output.write(
                        "file_search now searches \(arguments[1].replacingOccurrences(of: ",", with: ", ")).\n")
                }
                return
            default:
                break
            }
        }
        guard let parse = subcommands[root]?.parse else { return }
        let provider: String?
        let execute: @Sendable (FilesRunner) async -> ExitStatus
        switch parse(arguments) {
        case .run(let name, let body):
            provider = name
            execute = body
        case .help(let help):
            context.output.write(help + "\n")
            return
        case .message(let message):
            context.diagnostics.write(message + "\n")
            return
        }
        // `--provider NAME` in the console: that provider's files or stores, for this command only.
        var oneOff: ConsoleContext?
        if let name = provider, name != providerName {
            guard let other = providerContext(name) else { return }
            oneOff = other
        }
        let runner = FilesRunner(context: oneOff ?? context, progressEnabled: editor.isInteractive)
        let (_, interrupted) = bridge.run { [oneOff] in
            let status = await execute(runner)
            await oneOff?.shutdown()
            return status
        }
        if interrupted { context.diagnostics.write("[interrupted; what was already created is listed above]\n") }
    }
}
