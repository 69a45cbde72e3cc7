import Foundation
import TestSupport
import Testing

/// Issue 49: a new user's second command. With no key and no server, `ask` answers from the user's
/// documents without a model (as the console does), marked as such; with no documents, it says how to get a
/// model and how to answer from documents instead.
@Suite("ask with no model")
struct FirstUseTests {
    @Test func noKeyAndNoDocumentsSaysHowToGetAModelOrUseTheLibrary() async throws {
        let home = TestHome("first-use-empty")
        defer { home.remove() }
        let asked = try await home.run(["ask", "how do I export a conversation?"])
        #expect(asked.status == 2)
        #expect(asked.stderr.contains("error: OPENAI_API_KEY is not set"), "\(asked.stderr)")
        #expect(
            asked.stderr.contains("hint: for a model, export OPENAI_API_KEY=sk-")
                && asked.stderr.contains("openresponses library add PATH and then library ask"), "\(asked.stderr)")
        #expect(asked.stdout.isEmpty)
    }

    @Test func noKeyAnswersFromTheLibraryMarkedAsWithoutAModel() async throws {
        let home = TestHome("first-use-library")
        defer { home.remove() }
        let folder = try home.folder(
            "notes",
            files: [
                "export.md":
                    "# Export\n\nTo export a conversation, run /export FILE in the console.\n\n# Other\n\nPelicans fly low.\n"
            ])
        let added = try await home.run(["library", "add", folder.path])
        #expect(added.status == 0, "\(added.stderr)")
        let asked = try await home.run(["ask", "how do I export a conversation?"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.hasPrefix("No model was used"), "\(asked.stdout)")
        #expect(asked.stdout.contains("run /export FILE in the console. [1]"), "\(asked.stdout)")
        #expect(
            asked.stderr.contains(
                "note: OPENAI_API_KEY is not set: answering from your library without a model"), "\(asked.stderr)")
        // A flag that needs a server still says what is missing.
        let json = try await home.run(["ask", "--json", "how do I export a conversation?"])
        #expect(json.status == 2 && json.stderr.contains("OPENAI_API_KEY is not set"), "\(json.stderr)")
    }
}
