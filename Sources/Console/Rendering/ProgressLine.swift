import Foundation
import Synchronization
import Untrusted

/// A progress line redrawn in place on a terminal (`name  12.0 MB / 40.0 MB  30%  45.1 MB/s  1 s left`),
/// at most ten times a second; nothing when the sink is not a terminal.
final class ProgressLine: Sendable {
    let output: any OutputSink
    let enabled: Bool
    let label: String
    let total: Int
    private let state = Mutex((start: ContinuousClock.now, lastDraw: ContinuousClock.now - .seconds(1), drawn: false))

    init(output: any OutputSink, enabled: Bool, label: String, total: Int) {
        self.output = output
        self.enabled = enabled
        self.label = label
        self.total = total
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let line: TerminalText? = state.withLock { state in
            guard now - state.lastDraw >= .milliseconds(100) || done >= total else { return nil }
            state.lastDraw = now
            state.drawn = true
            let seconds = max(0.001, Self.seconds(now - state.start))
            let rate = Double(done) / seconds
            let left = rate > 0 ? Double(total - done) / rate : 0
            let percent = total > 0 ? done * 100 / total : 100
            return
                "\r\u{1B}[K\(label)  \(Self.size(done)) / \(Self.size(total))  \(percent)%  \(Self.size(Int(rate)))/s  \(Int(left.rounded())) s left"
        }
        if let line { output.write(line) }
    }

    /// Ends the line (when something was drawn).
    func finish() {
        guard enabled, state.withLock({ $0.drawn }) else { return }
        output.write("\n")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func size(_ bytes: Int) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
