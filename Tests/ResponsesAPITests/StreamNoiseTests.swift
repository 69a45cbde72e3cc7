import ResponsesAPI
import Testing

/// The obfuscation padding cut out of an event's bytes, everything else byte for byte.
@Suite("Stream noise")
struct StreamNoiseTests {
    private func strip(_ text: String) -> String {
        String(decoding: StreamNoise.withoutObfuscation(Array(text.utf8)), as: UTF8.self)
    }

    @Test func theMemberGoesWithItsCommaWhereverItIs() {
        #expect(
            strip(#"{"type":"response.output_text.delta","delta":"Hi","obfuscation":"x9Q"}"#)
                == #"{"type":"response.output_text.delta","delta":"Hi"}"#)
        #expect(
            strip(#"{"obfuscation":"x9Q","type":"response.output_text.delta","delta":"Hi"}"#)
                == #"{"type":"response.output_text.delta","delta":"Hi"}"#)
        #expect(
            strip(#"{"type":"response.output_text.delta","obfuscation":"a\"b","delta":"Hi"}"#)
                == #"{"type":"response.output_text.delta","delta":"Hi"}"#)
        #expect(strip(#"{ "type" : "d" , "obfuscation" : "pad" }"#) == #"{ "type" : "d" }"#)
        #expect(strip(#"{"obfuscation":"only one member"}"#) == #"{}"#)
    }

    @Test func anythingElseIsLeftAsItIs() {
        for text in [
            #"{"type":"response.output_text.delta","delta":"obfuscation","logprobs":[]}"#,
            #"{"type":"x","item":{"obfuscation":"nested, not the event's"}}"#,
            #"{"type":"x","obfuscation":12345678901}"#,
            #"{"type":"x","obfuscation":"unterminated"#,
            "[DONE]",
            "",
        ] {
            #expect(strip(text) == text, "\(text)")
        }
    }
}
