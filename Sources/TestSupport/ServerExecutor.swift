import Foundation

/// Where the loopback server's tasks run: two threads of their own, not the concurrency pool. A full test run
/// keeps the pool's two threads busy for a minute or more at a time (other suites' synchronous work), and the
/// server's writes, pauses and drops waited behind it: a scripted drop came so late that the client's stream
/// ended by a timeout, and a paced answer stopped for a minute on a tmux screen. Tests then waited for the
/// server instead of for the code they test.
final class ServerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ServerExecutor(threads: 2)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "loopback-server-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for the life of the process.
    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
