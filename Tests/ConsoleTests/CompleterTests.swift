import Console
import Testing

/// Tab completion's candidates, from the settings registry and the preset names.
@Suite("Completion")
struct CompleterTests {
    let completer = Completer(presetNames: { ["deep-reasoning", "default", "doc-qa"] }, storeIDs: { ["vs_1"] })

    @Test("candidates", arguments: [
        ("", "/pre", ["/preset"]),
        ("", "/s", ["/set", "/settings", "/stores", "/stream"]),
        ("/stores ", "u", ["use", "update"]),
        ("/stores use ", "vs", ["vs_1"]),
        ("", "/re", ["/reset", "/resume", "/retry"]),
        ("/mode ", "st", ["stored", "stateless"]),
        ("", "hello", []),
        ("/preset ", "u", ["use"]),
        ("/preset use ", "de", ["deep-reasoning", "default"]),
        ("/preset diff default ", "do", ["doc-qa"]),
        ("/preset save ", "d", []),
        ("/set ", "reasoning.", ["reasoning.effort", "reasoning.summary"]),
        ("/unset ", "meta", ["metadata."]),
        ("/set reasoning.effort ", "m", ["minimal", "medium"]),
        ("/set store ", "", ["true", "false"]),
        ("/set temperature ", "", []),
        ("/stream ", "o", ["on", "off"]),
    ])
    func candidates(_ before: String, _ word: String, _ expected: [String]) {
        #expect(completer.candidates(before: before, word: word) == expected)
    }

    @Test func fileNamesAfterAttach() {
        #expect(Completer.completesFileNames(before: "/attach "))
        #expect(Completer.completesFileNames(before: "/attach a.pdf "))
        #expect(!Completer.completesFileNames(before: "/set "))
    }
}
