import Foundation

/// The official OpenAI Python SDK, in the virtual environment `scripts/python-sdk.sh` makes: a real client
/// nobody here wrote, for the proxy's tests. `scripts/test.sh` installs it and sets
/// `OPENRESPONSES_REQUIRE_PYTHON_SDK=1`, so there a missing SDK fails the tests instead of skipping them.
public enum PythonSDK {
    /// The venv's python, from `OPENRESPONSES_PYTHON_SDK` or the script's default place; nil when absent.
    public static var python: String? {
        cachedProgram(variable: "OPENRESPONSES_PYTHON_SDK", cached: "python-sdk/bin/python")
    }

    /// The program named by environment variable `variable`, else at `cached` under the cache folder the
    /// project's scripts install into (`$XDG_CACHE_HOME/openresponses`, or `~/.cache/openresponses`); nil when
    /// neither is an executable file.
    static func cachedProgram(variable: String, cached: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let candidates = [
            environment[variable],
            (environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")) + "/openresponses/" + cached,
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the tests that need it run: it is there, or the run requires it (then they fail loudly).
    public static var isAvailable: Bool {
        python != nil || ProcessInfo.processInfo.environment["OPENRESPONSES_REQUIRE_PYTHON_SDK"] == "1"
    }

    /// Runs `script` with the SDK's python, with `OPENAI_BASE_URL` and `OPENAI_API_KEY` set.
    public static func run(_ script: String, baseURL: String, key: String, extra: [String: String] = [:]) async throws
        -> Subprocess.Result
    {
        guard let python else {
            throw SubprocessError("the OpenAI Python SDK is not installed: run scripts/python-sdk.sh")
        }
        var environment = [
            "OPENAI_BASE_URL": baseURL, "OPENAI_API_KEY": key, "PATH": "/usr/bin:/bin", "HOME": NSHomeDirectory(),
        ]
        for (name, value) in extra { environment[name] = value }
        return try await Subprocess.run(python, ["-c", script], environment: environment)
    }
}
