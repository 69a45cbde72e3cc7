import Library
import Testing

/// Free text made into an FTS5 query: every word quoted, phrases and prefixes kept, and English function
/// words left out when other words remain.
@Suite("Search text as an FTS5 query")
struct FTSQueryTests {
    @Test func functionWordsAreLeftOutWhenOtherWordsRemain() {
        #expect(FTSQuery.make("What is the refund policy for a quarter?") == #""refund" OR "policy" OR "quarter""#)
        #expect(FTSQuery.make("the THE a An") == #""the" OR "THE" OR "a" OR "An""#, "only function words: all kept")
        #expect(FTSQuery.make(#"what is "the end" of it"#) == #""the end""#, "a phrase keeps its words")
        #expect(FTSQuery.make("the* refund") == #""the"* OR "refund""#, "a prefix is kept")
    }

    @Test func syntaxIsJustText() {
        #expect(
            FTSQuery.make(#"col:umn AND (x) -y "unclosed"#) == #""col" OR "umn" OR "x" OR "y" OR "unclosed""#,
            "AND is a function word, as text")
        #expect(FTSQuery.make(" \"\" ** () ") == nil)
    }
}
