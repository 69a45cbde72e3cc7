import Foundation

extension REPL {
    /// `/jobs [--all]`: the background responses this console created, with their status now.
    func jobsCommand(_ words: [String]) {
        guard words.isEmpty || words == ["--all"] else {
            context.diagnostics.write("usage: /jobs [--all]\n")
            return
        }
        let runner = JobsRunner(context: context)
        let all = !words.isEmpty
        _ = bridge.run { await runner.list(all: all, json: false) }
    }

    /// `/attach-job ID`: follows a background response from the last event shown (Ctrl-C detaches), or
    /// prints a finished one's answer.
    func attachJobCommand(_ words: [String]) {
        guard words.count == 1, let id = words.first else {
            context.diagnostics.write("usage: /attach-job RESPONSE_ID (/jobs lists them)\n")
            return
        }
        let runner = JobsRunner(context: context)
        _ = bridge.run { await runner.attach(id: id) }
    }
}
