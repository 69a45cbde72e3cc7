import Foundation
import TestSupport
import Testing

/// The set-up the library's peer tests share.
extension PeerServer {
    /// A note both library peer tests add: the one their searches for lamp wicks find.
    static let lampNote = "Lighthouse keepers trimmed the lamp wicks every evening."

    /// A fresh home whose runs of the binary talk to the peer, with the folder `folder` in it holding `files`
    /// (a name and its text each). Throws (the test fails) when no peer was found.
    static func libraryHome(_ label: String, folder: String, files: [String: String]) throws -> (TestHome, URL) {
        let home = TestHome(
            label, environment: ["OPENAI_BASE_URL": try #require(baseURL), "OPENAI_API_KEY": "sk-test-1234"])
        return (home, try home.folder(folder, files: files))
    }
}
