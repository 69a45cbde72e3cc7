import Testing

@testable import Console

/// What an exported conversation keeps: a tool's whole output, fenced so that its own fences stay inside.
/// The partial answer of a stream that broke off is in BinaryTests.
@Suite("history export")
struct HistoryExportTests {
    @Test func aToolsOutputIsExportedWhole() {
        let output = String(repeating: "a line of tool output with ```code```\n", count: 20)
        let fenced = ConversationExport.fenced(output)
        #expect(fenced.hasPrefix("````\n") && fenced.hasSuffix("\n````") && fenced.contains(output))
    }
}
