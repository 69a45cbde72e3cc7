import Foundation
import Testing
import Workbench

/// Where the data directory is, and that it is made private.
@Suite("The environment's data directory")
struct AppEnvironmentTests {
    @Test func homeThenXDGThenTheHomeDirectory() {
        func directory(_ variables: [String: String]) -> String { AppEnvironment(variables: variables).dataDirectory.path }
        #expect(directory(["OPENRESPONSES_HOME": "/a/or", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/a/or")
        #expect(directory(["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/openresponses")
        #expect(directory(["HOME": "/h"]) == "/h/.local/share/openresponses")
        // Set but empty is not set.
        #expect(directory(["OPENRESPONSES_HOME": "", "XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/openresponses")
        let environment = AppEnvironment(variables: ["XDG_DATA_HOME": "/x"])
        #expect(environment.inspectorPath == "/x/openresponses/inspector.sqlite")
        #expect(environment.historyPath == "/x/openresponses/history")
    }

    /// The paths are made from strings: trailing slashes go, "/" stays itself, a relative directory is taken
    /// from the current one, and each agrees with what `URL` makes of it.
    @Test func thePathsAreTheOnesURLMakes() {
        let cwd = FileManager.default.currentDirectoryPath
        let cases: [([String: String], String)] = [
            (["OPENRESPONSES_HOME": "/a/or/"], "/a/or"), (["OPENRESPONSES_HOME": "/a/or//"], "/a/or"),
            (["OPENRESPONSES_HOME": "/"], "/"), (["XDG_DATA_HOME": "/x/"], "/x/openresponses"),
            (["HOME": "/h/"], "/h/.local/share/openresponses"), (["OPENRESPONSES_HOME": "rel/or"], cwd + "/rel/or"),
        ]
        for (variables, expected) in cases {
            let environment = AppEnvironment(variables: variables)
            #expect(environment.dataDirectoryPath == expected, "\(variables)")
            #expect(environment.dataDirectory.path == expected, "\(variables)")
            let sqlite = expected == "/" ? "/inspector.sqlite" : expected + "/inspector.sqlite"
            #expect(environment.inspectorPath == sqlite, "\(variables)")
            #expect(environment.libraryPath == environment.dataDirectory.appendingPathComponent("library.sqlite").path)
        }
    }

    /// `process` reads the variables as they are now, the same ones `ProcessInfo` reads, values with "=" whole.
    @Test func theProcessEnvironmentIsReadAsItIsNow() {
        let name = "OPENRESPONSES_TEST_\(UInt32.random(in: 0...UInt32.max))"
        setenv(name, "a=b c", 1)
        defer { unsetenv(name) }
        let variables = AppEnvironment.process.variables
        #expect(variables[name] == "a=b c")
        #expect(variables == ProcessInfo.processInfo.environment)
        unsetenv(name)
        #expect(AppEnvironment.process.variables[name] == nil)
    }

    @Test func theDirectoryIsCreatedForItsOwnerAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("or-env-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = AppEnvironment(variables: ["XDG_DATA_HOME": root.appendingPathComponent("xdg").path])
        let made = try environment.ensureDataDirectory()
        #expect(made.path == root.appendingPathComponent("xdg/openresponses").path)
        let mode = try FileManager.default.attributesOfItem(atPath: made.path)[.posixPermissions] as? NSNumber
        // Whatever the umask, nobody but the owner may read it (0700 under the usual 022).
        #expect(mode.map { $0.intValue & 0o077 } == 0, "mode \(String(mode?.intValue ?? -1, radix: 8))")
        #expect(mode.map { $0.intValue & 0o700 } == 0o700)
    }
}
