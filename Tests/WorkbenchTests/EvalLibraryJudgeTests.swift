import Foundation
import ResponsesAPI
import Testing

@testable import Workbench

/// `cites:`, `judge:`, `library:` and `judge_preset:` as a suite writes them, the citations a library answer
/// is checked against, and how a judge's answer is read.
@Suite("eval cites and judge")
struct EvalLibraryJudgeTests {
    let directory = FileManager.default.temporaryDirectory

    func parse(_ text: String) throws(EvalSuiteError) -> EvalSuite {
        try EvalSuite.parse(text, path: "lib.yaml", directory: directory)
    }

    func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func readsCitesJudgeAndLibrary() throws {
        let suite = try parse(
            """
            version: 1
            library: true
            judge_preset: strict
            cases:
              - id: a
                input: "What is eval?"
                expect:
                  - cites: README.md
                  - cites: [{document: guide.pdf, page: 3}, Docs/eval.md]
                  - judge: {rubric: "Says what eval does", threshold: 0.5}
                  - judge: {rubric: "Is polite", preset: kind}
              - id: b
                input: "hi"
                library: false
            """)
        #expect(suite.cases.map(\.library) == [true, false])
        #expect(
            suite.cases[0].assertions == [
                .cites([EvalCitation(document: "README.md")]),
                .cites([EvalCitation(document: "guide.pdf", page: 3), EvalCitation(document: "Docs/eval.md")]),
                .judge(EvalJudgeSpec(rubric: "Says what eval does", preset: "strict", threshold: 0.5)),
                .judge(EvalJudgeSpec(rubric: "Is polite", preset: "kind", threshold: 0.7)),
            ])
        #expect(Set(suite.judgePresetLocations.keys) == ["strict", "kind"])
    }

    @Test func badCitesAndJudgesAreNamedWhereTheyAre() {
        let found = problems(
            """
            version: 1
            library: yes please
            cases:
              - id: a
                input: hi
                expect:
                  - cites: {page: 2}
                  - cites: {document: a.pdf, page: 0}
                  - judge: {threshold: 0.5}
                  - judge: {rubric: x, threshold: 2}
            """)
        #expect(found.contains { $0.hasPrefix("lib.yaml:2:10: library: expected true or false") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("lib.yaml:7:16: cases[0].expect[0].cites: a citation needs document:") })
        #expect(found.contains { $0.hasPrefix("lib.yaml:8:40: cases[0].expect[1].cites.page: expected a page number") })
        #expect(found.contains { $0.hasPrefix("lib.yaml:9:16: cases[0].expect[2].judge: judge needs rubric:") })
        #expect(found.contains { $0.hasPrefix("lib.yaml:10:39: cases[0].expect[3].judge.threshold: a threshold is") })
        #expect(found.count == 5, "\(found)")
    }

    @Test func aCitationMatchesTheDocumentsNameOrPathEndAndItsPage() {
        let readme = EvalCitedSource(path: "/home/u/repo/Docs/README.md")
        #expect(EvalCitation(document: "README.md").matches(readme))
        #expect(EvalCitation(document: "Docs/README.md").matches(readme))
        #expect(!EvalCitation(document: "ADME.md").matches(readme))
        #expect(!EvalCitation(document: "Other/README.md").matches(readme))
        #expect(!EvalCitation(document: "README.md", page: 1).matches(readme))
        let pages = EvalCitedSource(path: "/d/guide.pdf", page: 3, endPage: 4)
        #expect(EvalCitation(document: "guide.pdf", page: 4).matches(pages))
        #expect(!EvalCitation(document: "guide.pdf", page: 5).matches(pages))
    }

    @Test func citesFailsNamingWhatWasCited() {
        let cited = EvalObservation(
            answer: "x", latencyMs: 1,
            citations: [EvalCitedSource(path: "/d/a.md"), EvalCitedSource(path: "/d/b.pdf", page: 2)])
        #expect(EvalLibraryAnswer.check([EvalCitation(document: "a.md")], cited) == nil)
        #expect(
            EvalLibraryAnswer.check([EvalCitation(document: "c.md")], cited)
                == "c.md not cited; cited: a.md, b.pdf p. 2")
        #expect(
            EvalLibraryAnswer.check([EvalCitation(document: "a.md")], EvalObservation(answer: "", latencyMs: 1))
                == "not a library answer (give the case library: true)")
    }

    @Test func aJudgesAnswerIsReadOrSaidUnreadable() {
        let good = EvalJudge.read(#"{"score": 0.8, "reason": "fine"}"#, rubric: "r")
        #expect(good.score == 0.8 && good.reason == "fine" && good.error == nil)
        #expect(EvalJudge.read("I think 0.8", rubric: "r").error?.hasPrefix("the judge's answer is not JSON") == true)
        #expect(EvalJudge.read(#"{"score": 7, "reason": "x"}"#, rubric: "r").error?.contains("no score") == true)
        #expect(EvalChecker.judged(good, threshold: 0.7) == nil)
        #expect(EvalChecker.judged(good, threshold: 0.9) == "score 0.8: \"fine\"")
    }
}
