import Foundation
import ResponsesAPI
import Workbench

extension JobsRunner {
    /// `jobs wait ID`: asks the server for the job's status until it has ended (every half second at
    /// first, then less often, at most every 5 s), then prints its answer as `attach` does. Exit status as
    /// `ask`'s: 0 completed, 3 incomplete, 1 failed or cancelled, 130 when Ctrl-C stops the waiting (the job
    /// goes on). Unless `pinned`, the job's own provider, as the ledger names it, is asked.
    public func wait(id: String, pinned: Bool = false) async -> ExitStatus {
        await onJobServer(id, pinned: pinned) { await $0.waitHere(id: id) }
    }

    func waitHere(id: String) async -> ExitStatus {
        var delay = Duration.milliseconds(500)
        var announced = false
        do throws(any Error) {
            while true {
                let response = try await context.client.retrieve(id: id)
                let status = response.status ?? .completed
                guard [ResponseStatus.queued, .inProgress].contains(status) else {
                    return finished(response, status: status, waited: announced)
                }
                if !announced {
                    announced = true
                    context.diagnostics.write(
                        "Waiting for \(id) (\(status.rawValue)); Ctrl-C stops waiting, the job goes on.\n")
                }
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        } catch  where (error as? ResponsesAPIError)?.code == .cancelled || error is CancellationError {
            context.diagnostics.write(
                "Stopped waiting for \(id); it goes on on the server (openresponses jobs wait \(id) to wait again).\n")
            return .interrupted
        } catch {
            context.diagnostics.write("error: cannot wait for \(id): \(error)\n")
            return (error as? ResponsesAPIError)?.code == .configuration ? .usage : .apiError
        }
    }

    /// The ended job's answer on stdout, and how it ended on stderr unless it completed.
    private func finished(_ response: Response, status: ResponseStatus, waited: Bool) -> ExitStatus {
        let options = RenderOptions.forTerminal(
            fd: 1, environment: context.environment, settings: TurnSettings(model: ""))
        var renderer = TurnRenderer(output: context.output, options: options)
        renderer.render(response: response)
        renderer.finish(response: response)
        switch status {
        case .completed:
            return .success
        case .incomplete:
            let reason = response.json["incomplete_details"]?["reason"]?.stringValue
            context.diagnostics.write("\(response.id) is incomplete" + (reason.map { " (\($0))" } ?? "") + ".\n")
            return .incomplete
        default:
            let message = response.json["error"]?["message"]?.stringValue
            context.diagnostics.write(
                "\(response.id) is \(status.rawValue)" + (message.map { ": \($0)" } ?? "") + ".\n")
            return .apiError
        }
    }
}
