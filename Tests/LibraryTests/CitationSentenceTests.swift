import Foundation
import Testing

@testable import Library

/// An answer cut into the sentences `CitationVerifier` checks, each with what it cites; the words it scores,
/// folded and stemmed as the keyword index folds them.
@Suite("Citation sentences")
struct CitationSentenceTests {
    func split(_ answer: String) -> [CitationVerifier.Cited] { CitationVerifier.sentences(answer) }

    @Test func sentencesEndAtTheirMarkersWhateverTheirForm() {
        let answer = """
            The WAL keeps `sqlite3 .backup` apart [1]. A checkpoint copies them back.[2] Readers never block writers. [1][3]
            Both hold, e.g. SQLite after a crash [1, 2]! Pages are 4.5 KB on the U.S. Navy's build [2-3]? Plain text follows
            """
        #expect(
            split(answer) == [
                .init(text: "The WAL keeps `sqlite3 .backup` apart.", citations: [1]),
                .init(text: "A checkpoint copies them back.", citations: [2]),
                .init(text: "Readers never block writers.", citations: [1, 3]),
                .init(text: "Both hold, e.g. SQLite after a crash!", citations: [1, 2]),
                .init(text: "Pages are 4.5 KB on the U.S. Navy's build?", citations: [2, 3]),
                .init(text: "Plain text follows", citations: []),
            ])
    }

    @Test func codeHeadingsTableRulesAndFootnotesAreLeftOutAndListItemsStandAlone() {
        let answer = """
            ## What the notes say

            - Backups run nightly [1]
            - They are kept for 30 days [2]
            1. Restore from the newest one [1]

            ```sh
            sqlite3 db.sqlite ".backup out.db"  # Not a sentence [1].
            ```
            | setting | value |
            |---|---|
            | retention | 30 days [2] |

            [1] /notes/backup.md — “Backups run nightly.”
            """
        #expect(
            split(answer) == [
                .init(text: "Backups run nightly", citations: [1]),
                .init(text: "They are kept for 30 days", citations: [2]),
                .init(text: "Restore from the newest one", citations: [1]),
                .init(text: "setting: value", citations: []),
                .init(text: "retention: 30 days", citations: [2]),
            ])
    }

    @Test func theExtractiveAnswersBulletsAndCodeCitationsAreRead() {
        let answer = """
            • The inspector keeps every exchange. [1]
            • [2]
              ```sh
              openresponses inspect list
              ```
            """
        #expect(split(answer) == [.init(text: "The inspector keeps every exchange.", citations: [1])])
    }

    @Test func bracketsThatAreNoCitationStayText() {
        #expect(
            split("Arrays are written [a, b] here [1].") == [
                .init(text: "Arrays are written [a, b] here.", citations: [1])
            ])
        #expect(CitationVerifier.citationNumbers("1-500") == nil)
        #expect(CitationVerifier.citationNumbers("2, 4–5") == [2, 4, 5])
    }

    @Test func aClaimHasFourContentWordsAndIsNoLeadIn() {
        #expect(CitationVerifier.isClaim("The checkpoint copies pages into the database file."))
        #expect(!CitationVerifier.isClaim("Here is what the documents say:"))
        #expect(!CitationVerifier.isClaim("In short, yes."))
        #expect(!CitationVerifier.isClaim("Which backup tool copies pages into files?"))
    }

    @Test func wordsAreFoldedAndStemmedAsPorterDoes() {
        let expected = [
            "caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed", "agreed": "agre",
            "plastered": "plaster", "motoring": "motor", "sing": "sing", "conflated": "conflat", "troubled": "troubl",
            "sized": "size", "hopping": "hop", "falling": "fall", "filing": "file", "happy": "happi",
            "relational": "relat", "conditional": "condit", "rational": "ration", "digitizer": "digit",
            "operator": "oper", "triplicate": "triplic", "formalize": "formal", "electrical": "electr",
            "hopeful": "hope", "goodness": "good", "revival": "reviv", "allowance": "allow", "inference": "infer",
            "airliner": "airlin", "adjustable": "adjust", "adoption": "adopt", "controll": "control", "roll": "roll",
            "probate": "probat", "rate": "rate", "cease": "ceas", "backups": "backup", "connections": "connect",
        ]
        for (word, stem) in expected { #expect(PorterStemmer.stem(word) == stem, "\(word)") }
        #expect(CitationVerifier.terms("Café BACKUPS, the résumés of 2024") == ["cafe", "backup", "resum", "2024"])
    }

    @Test func aLongPassageIsCutIntoBoundedOverlappingWindows() {
        let passage = (1...1000).map { "w\($0)" }.joined(separator: " ")
        let windows = CitationVerifier.windows(passage, words: 40, atMost: 16)
        #expect(windows.count == 16)
        #expect(windows.first?.hasPrefix("w1 ") == true)
        #expect(windows.last?.hasSuffix(" w1000") == true)
        #expect(CitationVerifier.windows("a short passage", words: 40, atMost: 16) == ["a short passage"])
    }
}
