import ArgumentParser
import Foundation
import ResponsesAPI
import Workbench

/// `/files ...` and `/stores ...`: the same subcommands as on the command line; `/stores use ID[,ID...]`
/// turns on file_search with those stores for the following turns, `/stores use none` turns it off, and
/// `/stores` alone shows the active ones.
extension REPL {
    func filesCommand(_ arguments: [String], root: any ParsableCommand.Type) {
        if root == StoresCommand.self {
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
        let command: any ParsableCommand
        do {
            command = try root.parseAsRoot(arguments)
        } catch {
            let message = root.message(for: error)
            let help = root.fullMessage(for: error)
            context.diagnostics.write((arguments.isEmpty || message.isEmpty ? help : message) + "\n")
            return
        }
        guard let runnable = command as? any RunnerCommand else {
            context.output.write(root.helpMessage() + "\n")
            return
        }
        // `--provider NAME` in the console: that provider's files or stores, for this command only.
        var oneOff: ConsoleContext?
        if let name = runnable.server.provider, name != providerName {
            guard let other = providerContext(name) else { return }
            oneOff = other
        }
        let runner = FilesRunner(context: oneOff ?? context, progressEnabled: editor.isInteractive)
        let (_, interrupted) = bridge.run { [oneOff] in
            let status = await runnable.execute(runner)
            await oneOff?.shutdown()
            return status
        }
        if interrupted { context.diagnostics.write("[interrupted; what was already created is listed above]\n") }
    }
}
