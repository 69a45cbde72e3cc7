import Foundation

/// Runs the external programs the library reads documents with (poppler's, tesseract), found on `PATH`,
/// with a time limit; their output whole.
struct ToolRunner: Sendable {
    var searchPath: [String]
    var timeout: Duration

    init(environment: [String: String], timeout: Duration = .seconds(120)) {
        searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        self.timeout = timeout
    }

    struct Result {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Where `tool` is, or nil.
    func locate(_ tool: ExternalTool) -> String? {
        searchPath.map { "\($0)/\(tool.name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool` with `arguments`; a missing tool is an error naming its package, a timeout one naming
    /// the time.
    func run(_ tool: ExternalTool, _ arguments: [String], for path: String, page: Int? = nil) throws(LibraryError) -> Result {
        guard let executable = locate(tool) else { throw LibraryError(path: path, page: page, tool.missing) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw LibraryError(path: path, page: page, "cannot run \(tool.name): \(error.localizedDescription)")
        }
        // Read both pipes while the tool runs (a full pipe would block it), then wait.
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isOutput) in [(output, true), (errors, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, isOutput: isOutput)
                group.leave()
            }
        }
        let seconds = Double(timeout.components.seconds)
        if group.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            group.wait()
            process.waitUntilExit()
            throw LibraryError(path: path, page: page, "\(tool.name) did not finish within \(Int(seconds)) s")
        }
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: collected.output, errors: String(decoding: collected.errors, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        // Each field written once, by its own reader, before the group is left.
        private let lock = NSLock()
        private(set) var output = Data()
        private(set) var errors = Data()

        func set(_ data: Data, isOutput: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if isOutput { output = data } else { errors = data }
        }
    }
}
