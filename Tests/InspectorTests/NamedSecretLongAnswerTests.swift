import Foundation
import Inspector
import ResponsesAPI
import TestSupport
import Testing

/// A long answer whose text holds a secret the request carried in a secret-named header (a provider's
/// `api-key`), not the API key: the wire layer knows every secret of the request, so the final events that
/// repeat the text are kept whole and redacted, and every event reads back (issue 43 left this out: the
/// repeat was cut against deltas the inspector then redacted, and reading it back failed).
@Suite("A named secret in a long answer")
struct NamedSecretLongAnswerTests {
    static let headerSecret = "gateway-SECRET-0a1b2c3d4e5f"

    @Test func theFinalEventsStayWholeRedactedAndReadBack() async throws {
        let store = try TemporaryStore()
        defer { store.remove() }
        let text = "Your gateway key is " + Self.headerSecret + ". " + Fixtures.apiText(bytes: 300_000)
        let (frames, _) = Fixtures.apiTextStream(text: text)
        let detail = try await recordedStream(frames, headers: [("api-key", Self.headerSecret)], in: store)
        #expect(detail.events.count == frames.count)
        #expect(detail.events.allSatisfy { !String(decoding: $0.data, as: UTF8.self).contains(Self.headerSecret) })
        let finals = detail.events.suffix(4)
        for event in finals {
            #expect(String(decoding: event.data, as: UTF8.self).contains(Redactor.placeholder), "\(event.type)")
        }
    }
}
