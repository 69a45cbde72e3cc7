import Foundation
import Testing

@testable import Library

/// What a query's words tell hybrid search (issue 50): its language, its identifiers, how much of it is exact,
/// and how those move the fusion's weights.
@Suite("Query signals")
struct QuerySignalsTests {
    @Test(arguments: [
        ("how do I keep my Debian machine updated?", TextLanguage.english),
        ("Wie halte ich mein Debian auf dem neuesten Stand?", .german),
        ("comment maintenir mon système Debian à jour ?", .french),
        ("¿cómo puedo actualizar el sistema con los paquetes?", .spanish),
        ("Как обновить систему Debian?", .otherScript),
        ("Die Übungsaufgaben werden jede Woche in der Vorlesung besprochen.", .german),
    ])
    func theLanguageIsToldFromItsCommonWords(text: String, language: TextLanguage) {
        #expect(TextLanguage.guess(text) == language)
    }

    @Test(arguments: ["Unvollständigkeitssatz", "quasicrystal", "Debian", "fstab 404", ""])
    func aWordOrTwoTellNoLanguage(text: String) {
        #expect(TextLanguage.guess(text) == nil)
    }

    @Test func identifiersAndNumbersAreTold() {
        let signals = QuerySignals(
            text: "why does RetryPolicy ignore max_tokens in v1.2 with --json and /etc/fstab, error 404?")
        #expect(signals.identifiers == ["RetryPolicy", "max_tokens", "v1.2", "--json", "/etc/fstab", "404"])
        #expect(QuerySignals(text: "how do I export a conversation?").identifiers == [])
        #expect(QuerySignals(text: "Mr. Smith's e-mail").identifiers == [], "a dash or a full stop at an end is prose")
    }

    @Test func theExactShareIsTheExactWordsOverTheContentWords() {
        var signals = QuerySignals(text: "Was ist ein Feldseparator?")
        #expect(signals.contentTerms == 1, "German function words do not count")
        signals.rareTerms = [.init(term: "Feldseparator", passages: 1)]
        #expect(signals.exactShare == 1)
        var question = QuerySignals(text: "which bootloader setting stops the kernel from loading the driver")
        question.rareTerms = [.init(term: "bootloader", passages: 2)]
        #expect(question.contentTerms == 6 && abs(question.exactShare - 1.0 / 6) < 1e-12)
        #expect(QuerySignals(text: "find \"exact phrase here\" please").exactShare == 1, "a quoted phrase is all exact")
        #expect(QuerySignals(text: "nothing exact in this").exactShare == 0)
    }

    @Test func exactWordsMoveTheKeywordsShareAndALanguageLowersTheModels() throws {
        let files = try LibraryFixtures()
        defer { files.remove() }
        let retriever = Retriever(store: try files.openStore(), embedder: nil)
        let keyword = [Retriever.Candidate(id: 1, score: 4)]
        let semantic = [Retriever.Candidate(id: 2, score: 0.5)]
        // Nothing said: 0.4 × 1 for the keyword passage, 0.6 × 1 for the semantic one.
        let plain = retriever.fuse(keyword: keyword, semantic: semantic)
        #expect(plain.map(\.id) == [2, 1] && abs(plain[0].score - 0.6) < 1e-12 && abs(plain[1].score - 0.4) < 1e-12)
        // A rare word that is the whole query: keywords weigh 0.8.
        var rare = QuerySignals(text: "Unvollständigkeitssatz")
        rare.rareTerms = [.init(term: "Unvollständigkeitssatz", passages: 1)]
        let exact = retriever.fuse(keyword: keyword, semantic: semantic, signals: rare)
        #expect(exact.map(\.id) == [1, 2] && abs(exact[0].score - 0.8) < 1e-12 && abs(exact[1].score - 0.2) < 1e-12)
        #expect(exact[0].explanation.reasons == ["\"Unvollständigkeitssatz\" is in 1 passage only: keywords weigh 0.8"])
        // Half the query exact: halfway from 0.4 to 0.8.
        var half = QuerySignals(text: "Feldseparator Tabelle")
        half.rareTerms = [.init(term: "Feldseparator", passages: 1)]
        #expect(abs(retriever.fuse(keyword: keyword, semantic: semantic, signals: half)[0].score - 0.6) < 1e-12)
        // A German question: the model's likeness counts half (0.3), so the keyword passage (0.4) leads.
        let german = retriever.fuse(
            keyword: keyword, semantic: semantic, signals: QuerySignals(text: "Wie halte ich mein System aktuell?"))
        #expect(german.map(\.id) == [1, 2] && abs(german[1].score - 0.3) < 1e-12)
        // An English query and a French passage: that passage's likeness counts half.
        let french = retriever.fuse(
            keyword: keyword, semantic: semantic, signals: QuerySignals(text: "how do I keep it current"),
            languages: [2: .french])
        #expect(french.map(\.id) == [1, 2])
        #expect(french[1].explanation.reasons.last?.contains("the passage is in french") == true)
    }
}
