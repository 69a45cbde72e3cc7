import Foundation
import TestSupport
import Testing

/// `scripts/install.sh` as a user runs it, into an empty prefix: the binary it installs runs from any
/// directory and finds the shipped presets and prices beside itself, says its version and git revision, its
/// bash completion completes in a real terminal, its manual renders, and `--uninstall` removes exactly what
/// the install wrote. (It installs the binary under test: a test cannot run `swift build` itself.)
/// ArgumentParser's manual generator, built beside the binary under test.
enum ManualGenerator {
    static let path = URL(fileURLWithPath: Subprocess.openresponsesBinary).deletingLastPathComponent()
        .appendingPathComponent("generate-manual").path
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: path) }
}

@Suite(
    "scripts/install.sh", .serialized,
    .enabled(if: ManualGenerator.isBuilt, "ArgumentParser's generate-manual is not built (scripts/test.sh builds it)"))
struct InstallTests {
    let prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-install-\(UUID().uuidString)", isDirectory: true)
    let checkout = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
    var binary: String { prefix.appendingPathComponent("bin/openresponses").path }

    func install(_ arguments: [String]) async throws -> Subprocess.Result {
        try await Subprocess.run(
            "/bin/bash", [checkout.appendingPathComponent("scripts/install.sh").path] + arguments,
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": prefix.path,
                "OPENRESPONSES_INSTALL_BINARY": Subprocess.openresponsesBinary,
                "OPENRESPONSES_GENERATE_MANUAL": ManualGenerator.path,
            ])
    }

    /// The data directory of the installed program's commands (outside the prefix: the uninstall leaves it).
    var home: String { prefix.path + "-home" }

    /// Runs `command` with /bin/sh from a directory outside the checkout.
    func shell(_ command: String) async throws -> Subprocess.Result {
        try await Subprocess.run(
            "/bin/sh", ["-c", "cd / && \(command)"],
            environment: [
                "PATH": "/usr/bin:/bin", "HOME": home, "OPENRESPONSES_HOME": home,
            ])
    }

    @Test func installedItRunsFromAnywhereCompletesHasAManualAndUninstallsCleanly() async throws {
        defer {
            try? FileManager.default.removeItem(at: prefix)
            try? FileManager.default.removeItem(atPath: home)
        }
        let mine = prefix.appendingPathComponent("share/mine", isDirectory: true)
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)

        let installed = try await install(["--prefix", prefix.path])
        try #require(installed.status == 0, "\(installed.stderr)")
        #expect(installed.stdout.contains("installed in \(prefix.path)"))

        let version = try await shell("'\(binary)' --version")
        #expect(
            version.stdout.firstMatch(of: /^0\.1\.0 \(([0-9a-f]{12}(-dirty)?|unknown)\)\n$/) != nil, "\(version.stdout)"
        )
        // Not from the checkout (no checkout is above the prefix): from lib/openresponses, beside the binary.
        let listed = try await shell("'\(binary)' presets list")
        #expect(
            listed.status == 0 && listed.stdout.contains("default") && listed.stdout.contains("[shipped]"),
            "\(listed.stdout)\(listed.stderr)")
        // The report's template is found beside the binary too.
        _ = try await shell("OPENAI_BASE_URL=http://127.0.0.1:1/v1 OPENAI_API_KEY=sk-install-test '\(binary)' ask hi")
        let report = try await shell("'\(binary)' inspect report -o '\(home)/report.html'")
        #expect(report.status == 0 && report.stdout.contains(" exchange"), "\(report.stdout)\(report.stderr)")
        // The prices too: a table written over the installed one is the one used (the package's own copy in
        // the build folder, which the binary also knows, has no such model).
        let prices = prefix.appendingPathComponent("lib/openresponses/prices.json")
        try Data(#"{"models":{"install-test-model":{"input":7.00,"output":9.00}}}"#.utf8).write(to: prices)
        let server = try await LoopbackServer.start { _ in
            .json(#"{"object":"response.input_tokens","input_tokens":1000}"#)
        }
        defer { Task { await server.stop() } }
        let estimate = try await shell(
            "OPENAI_BASE_URL=\(server.baseURL) OPENAI_API_KEY=sk-install-test '\(binary)' ask --estimate --model install-test-model hi"
        )
        #expect(
            estimate.stdout.contains("at $7.00 per 1M input tokens; output $9.00 per 1M"),
            "\(estimate.stdout)\(estimate.stderr)")
        let handler = prefix.appendingPathComponent("lib/openresponses/presets/handlers/local-time.sh").path
        #expect(FileManager.default.isExecutableFile(atPath: handler))

        // The manual renders.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let manual = try await shell("MANWIDTH=80 man -l '\(prefix.path)/share/man/man1/openresponses.1' | col -b")
            #expect(
                manual.stdout.contains("openresponses") && manual.stdout.contains("SYNOPSIS"),
                "\(manual.stdout)\(manual.stderr)")
        } else {
            Issue.record("man is not installed (scripts/setup.sh installs man-db)")
        }

        // Bash completion, sourced in a real terminal.
        let tmux = try TmuxSession()
        defer { tmux.kill() }
        try await tmux.waitFor("$ ")
        try tmux.type(
            "PATH='\(prefix.path)/bin':$PATH; source '\(prefix.path)/share/bash-completion/completions/openresponses'; clear"
        )
        try tmux.type("openresponses ins", enter: false)
        try tmux.press("Tab")
        try await tmux.waitFor("openresponses inspect ")
        try tmux.press("C-u")

        // Everything the install wrote goes, and nothing else does.
        let removed = try await install(["--uninstall", "--prefix", prefix.path])
        #expect(removed.status == 0, "\(removed.stderr)")
        let left = FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String] ?? []
        #expect(left.sorted() == ["share", "share/mine"], "\(left)")
    }
}
