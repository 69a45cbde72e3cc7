import ResponsesAPI
import Testing

/// Inputs the fuzzers (scripts/fuzz.sh) found, kept so the bugs stay fixed.
@Suite("Fuzzing findings")
struct FuzzRegressionTests {
    /// JSON fuzzing, 2026-11-23: a number too large for a double parsed as -inf and was written back as
    /// `null`, so parse → serialise → parse changed the value.
    @Test func aNumberBeyondADoubleSurvivesTheRoundTrip() throws {
        let input = #"{"typbargumentses":[32,111,204],"logprob":-8.18025819175762e7714525}"#
        let value = try JSONValue.parse(input)
        #expect(value["logprob"] == .number(-.infinity))
        let serialized = value.compactString
        #expect(serialized == #"{"typbargumentses":[32,111,204],"logprob":-1e999}"#)
        #expect(try JSONValue.parse(serialized) == value)
        #expect(try JSONValue.parse("1e400") == .number(.infinity))
        #expect(JSONValue.number(.infinity).compactString == "1e999")
    }
}
