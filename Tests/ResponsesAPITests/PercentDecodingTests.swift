import ResponsesAPI
import Testing

/// `%XX` decoding as the inspector (a query's names) and the proxy (a path's segments) both use it.
@Suite("Percent decoding")
struct PercentDecodingTests {
    func decoded(_ text: String, plusAsSpace: Bool = false) -> String {
        String(decoding: PercentDecoding.decode(Array(text.utf8), plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    @Test func escapesOfEitherCaseAreDecodedAndMalformedOnesKept() {
        #expect(decoded("%2e%2E%2f") == "../")
        #expect(decoded("api%5Fkey") == "api_key")
        #expect(decoded("100%") == "100%")
        #expect(decoded("%4") == "%4")
        #expect(decoded("%zz%41") == "%zzA")
        #expect(decoded("%252e") == "%2e")
    }

    @Test func aPlusIsASpaceOnlyInAFormEncodedQuery() {
        #expect(decoded("a+b%2Bc", plusAsSpace: true) == "a b+c")
        #expect(decoded("a+b") == "a+b")
    }
}
