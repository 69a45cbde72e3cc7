import TestSupport
import Testing

@testable import ResponsesAPI

/// The fingerprint of a text fed in pieces (its deltas) is the fingerprint of the text in one piece (a
/// final event's string), and any change of a byte or of the length changes it.
@Suite("Fingerprints over pieces")
struct FingerprintHasherTests {
    @Test func piecesGiveTheFingerprintOfTheWhole() {
        var generator = SplitMix(seed: 19)
        for round in 0..<400 {
            let count = round < 40 ? round : Int(generator.next() % 5000)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let whole = bytes.withUnsafeBufferPointer { LongStrings.fingerprint($0) }
            var hasher = FingerprintHasher()
            var start = 0
            while start < count {
                let end = min(count, start + Int(generator.next() % (round % 2 == 0 ? 23 : 300)))
                hasher.update(Array(bytes[start..<end]))
                start = end
            }
            #expect(hasher.finalize() == whole, "\(count) bytes in pieces")
            #expect(hasher.count == count)
        }
    }

    @Test func anyChangedByteOrLengthChangesIt() {
        let text = Array("héllo wörld, the whole answer again and again\\n".utf8)
        let base = text.withUnsafeBufferPointer { LongStrings.fingerprint($0) }
        for position in text.indices {
            var changed = text
            changed[position] ^= 0x01
            #expect(changed.withUnsafeBufferPointer { LongStrings.fingerprint($0) } != base)
        }
        let longer = (text + [0]).withUnsafeBufferPointer { LongStrings.fingerprint($0) }
        #expect(longer != base)
    }
}
