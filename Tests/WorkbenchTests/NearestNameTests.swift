import Testing
import Workbench

/// "Did you mean …?": the distance counts a swap of neighbours as one edit, and a suggestion is made only when
/// the name is close enough to be a typo.
@Suite("Nearest name")
struct NearestNameTests {
    @Test(
        "distance",
        arguments: [
            ("inspct", "inspect", 1), ("lsit", "list", 1), ("histroy", "history", 1), ("", "ask", 3), ("ask", "", 3),
            ("ask", "ask", 0), ("kitten", "sitting", 3), ("ca", "abc", 3),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(NearestName.distance(a, b) == expected)
    }

    @Test func suggestsTheClosestWhenItIsATypo() {
        let commands = ["chat", "ask", "inspect", "ledger", "jobs", "history", "library", "presets"]
        #expect(NearestName.closest(to: "inspct", in: commands) == "inspect")
        #expect(NearestName.closest(to: "INSPECT", in: commands) == "inspect")
        #expect(NearestName.closest(to: "hsitory", in: commands) == "history")
        #expect(NearestName.closest(to: "lsit", in: ["list", "show", "diff"]) == "list")
        #expect(NearestName.closest(to: "ls", in: commands) == nil, "two edits of a two-letter word is no typo")
        #expect(NearestName.closest(to: "weather", in: commands) == nil)
        #expect(NearestName.closest(to: "anything", in: []) == nil)
    }
}
