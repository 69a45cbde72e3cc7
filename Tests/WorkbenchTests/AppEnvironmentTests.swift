import Foundation
import Testing

@testable import Workbench

/// Where the data directory is, and that it is made private.
@Suite("The environment's data directory")
struct AppEnvironmentTests {
    @Test func homeThenXDGThenTheHomeDirectory() {
        func directory(_ variables: [String: String]) -> String {
            AppEnvironment(variables: variables).dataDirectory.path
        }
        #expect(directory(["OPENRESPONSES_HOME": "/a/or", "XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/a/or")
        #expect(directory(["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/openresponses")
        #expect(directory(["HOME": "/h"]) == "/h/.local/share/openresponses")
        // Set but empty is not set.
        #expect(
            directory(["OPENRESPONSES_HOME": "", "XDG_DATA_HOME": "", "HOME": "/h"]) == "/h/.local/share/openresponses")
        let environment = AppEnvironment(variables: ["XDG_DATA_HOME": "/x"])
        #expect(environment.inspectorPath == "/x/openresponses/inspector.sqlite")
        #expect(environment.historyPath == "/x/openresponses/history")
    }

    /// The paths are the ones `URL` made before they were made from strings: trailing slashes dropped, "/" itself,
    /// a `~` expanded, a relative directory taken from the current one with its dot segments resolved.
    @Test func thePathsAreTheOnesURLMadeBefore() {
        func old(_ variables: [String: String]) -> URL {
            let environment = AppEnvironment(variables: variables)
            if let home = environment["OPENRESPONSES_HOME"] { return URL(fileURLWithPath: home, isDirectory: true) }
            if let xdg = environment["XDG_DATA_HOME"] {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                    "openresponses", isDirectory: true)
            }
            return URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true)
                .appendingPathComponent(".local/share/openresponses", isDirectory: true)
        }
        let directories = [
            "/a/or", "/a/or/", "/", "//a", "/a//b/", "/a/./b", "rel/or", "./x", "../x", "a/../b", "~", "~/x", "x/~",
            "é t/%20",
        ]
        for directory in directories {
            for variables in [["OPENRESPONSES_HOME": directory], ["XDG_DATA_HOME": directory], ["HOME": directory]] {
                let environment = AppEnvironment(variables: variables)
                let expected = old(variables)
                #expect(environment.dataDirectoryPath == expected.path, "\(variables)")
                #expect(
                    environment.inspectorPath == expected.appendingPathComponent("inspector.sqlite").path,
                    "\(variables)")
                #expect(
                    environment.libraryPath == expected.appendingPathComponent("library.sqlite").path, "\(variables)")
                #expect(environment.historyPath == expected.appendingPathComponent("history").path, "\(variables)")
            }
        }
        // Where they differ: `URL` kept one of two trailing slashes ("/a/or//inspector.sqlite", the same file).
        #expect(AppEnvironment(variables: ["OPENRESPONSES_HOME": "/a/or//"]).inspectorPath == "/a/or/inspector.sqlite")
    }

    /// `process` reads the variables as they are now, the names `ProcessInfo` reads, a value with "=" whole.
    @Test func theProcessEnvironmentIsReadAsItIsNow() {
        let name = "OPENRESPONSES_TEST_\(UInt32.random(in: 0...UInt32.max))"
        setenv(name, "a=b c", 1)
        defer { unsetenv(name) }
        let variables = AppEnvironment.process.variables
        #expect(variables[name] == "a=b c")
        #expect(Set(variables.keys) == Set(ProcessInfo.processInfo.environment.keys))
        unsetenv(name)
        #expect(AppEnvironment.process.variables[name] == nil)
    }

    /// An `environ`-shaped list: split at the first "=", an entry without one skipped, the first of two
    /// values kept (`getenv`'s), an empty value and name kept, non-ASCII text whole.
    @Test func aListOfEntriesIsParsedAsGetenvReadsIt() {
        let texts = ["A=1", "B=x=y", "A=2", "NO_EQUALS", "EMPTY=", "=nameless", "É=é"]
        let entries: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) } + [nil]
        defer { entries.forEach { free($0) } }
        var list = entries
        let variables = list.withUnsafeMutableBufferPointer { AppEnvironment.parse($0.baseAddress!) }
        #expect(variables == ["A": "1", "B": "x=y", "EMPTY": "", "": "nameless", "É": "é"])
    }

    @Test func theDirectoryIsCreatedForItsOwnerAlone() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "or-env-\(UUID().uuidString)", isDirectory: true)
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
