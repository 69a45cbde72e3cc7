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

    /// `/cancel [ID]`: cancels on the server the background response Ctrl-C detached from, or ID (on the
    /// provider the ledger names for it).
    func cancelJobCommand(_ words: [String]) {
        guard words.count <= 1, let id = words.first ?? detachedJob else {
            context.diagnostics.write(
                "usage: /cancel [RESPONSE_ID] (alone: the background response Ctrl-C detached from; none yet)\n")
            return
        }
        if id == detachedJob {
            let session = self.session
            let (line, _) = bridge.run { await session.cancelOnServer(id) }
            context.diagnostics.write(line + "\n")
        } else {
            // Another job: asked of the provider the ledger says it was created on.
            let runner = JobsRunner(context: context)
            _ = bridge.run { await runner.cancel(id: id, json: false) }
        }
        if id == detachedJob { detachedJob = nil }
        jobWatcher.unwatch(id)
    }

    /// `/bg on|off`: the next responses in the background, or not (the `background` setting).
    func backgroundCommand(_ words: [String]) {
        switch words {
        case ["on"]: setCommand("background true")
        case ["off"]: setCommand("background false")
        default:
            context.diagnostics.write(
                "usage: /bg on|off (now \(settings.value(forKey: "background")?.boolValue == true ? "on" : "off"))\n")
        }
    }

    /// `/markdown on|off`: answers rendered as Markdown, or their raw text (the `console.markdown` setting).
    func markdownCommand(_ words: [String]) {
        switch words {
        case ["on"]: setCommand("console.markdown true")
        case ["off"]: setCommand("console.markdown false")
        default: context.diagnostics.write("usage: /markdown on|off (now \(settings.markdown ? "on" : "off"))\n")
        }
    }
}
