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
