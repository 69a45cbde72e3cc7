import Foundation
import Testing

@testable import Library

/// libxml2 opened when a DOCX is first read (`LibXML2`), and its streaming reader (`XMLReader`): nodes in
/// document order, an empty element as a start and an end, entities and character references replaced,
/// whitespace and CDATA kept as text, comments skipped, and the line where a document stops being well-formed.
@Suite("XML read with libxml2 opened at run time")
struct XMLReaderTests {
    static func nodes(_ xml: String) throws -> [XMLReader.Node] {
        let reader = try #require(XMLReader(Data(xml.utf8), library: try LibXML2.shared.get()))
        var nodes: [XMLReader.Node] = []
        while let node = try reader.next() { nodes.append(node) }
        return nodes
    }

    @Test func nodesInOrderWithEntitiesEmptyElementsWhitespaceAndCDATA() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment --><w:r xmlns:w="urn:w"><w:t>Fish &amp; chips &lt;&#233;t&#xE9;&gt;</w:t><w:tab/>\
            <w:t xml:space="preserve">  </w:t><w:t> </w:t><w:t><![CDATA[a < b]]></w:t><w:t>Ω≈</w:t></w:r>
            """
        #expect(
            try Self.nodes(xml) == [
                .start("w:r"), .start("w:t"), .text("Fish & chips <été>"), .end("w:t"), .start("w:tab"), .end("w:tab"),
                .start("w:t"), .text("  "), .end("w:t"), .start("w:t"), .text(" "), .end("w:t"), .start("w:t"),
                .text("a < b"), .end("w:t"),
                .start("w:t"), .text("Ω≈"), .end("w:t"), .end("w:r"),
            ])
    }

    @Test func anAttributeOfTheCurrentElement() throws {
        let library = try LibXML2.shared.get()
        let reader = try #require(
            XMLReader(Data(#"<a xmlns:w="urn:w"><w:pStyle w:val="Heading2"/><b/></a>"#.utf8), library: library))
        #expect(try reader.next() == .start("a"))
        #expect(try reader.next() == .start("w:pStyle"))
        #expect(reader.attribute("w:val") == "Heading2")
        #expect(reader.attribute("w:other") == nil)
        #expect(try reader.next() == .end("w:pStyle"))
        #expect(try reader.next() == .start("b"))
        #expect(try reader.next() == .end("b"))
        #expect(try reader.next() == .end("a"))
        #expect(try reader.next() == nil)
    }

    @Test func aDocumentThatIsNotWellFormedStopsAtItsLine() throws {
        let error = #expect(throws: XMLReader.Malformed.self) { _ = try Self.nodes("<a>\n<b>\n</a>\n") }
        #expect(error?.line == 3)
        #expect(error?.reason.contains("mismatch") == true, "\(error?.reason ?? "")")
        // An undeclared prefix is reported and read past; the error that ends the reading is the one named.
        let later = #expect(throws: XMLReader.Malformed.self) { _ = try Self.nodes("<w:a>\n<b>\n</w:a>\n") }
        #expect(later?.line == 3)
        #expect(later?.reason.contains("mismatch") == true, "\(later?.reason ?? "")")
    }

    /// An entity declared in a DTD is an error that names it, not text silently left out; an external one is
    /// never fetched (a document that asks for a local file gets nothing of it).
    @Test func entitiesADTDDeclaresAreErrorsAndExternalOnesAreNotRead() throws {
        let declared = #expect(throws: XMLReader.Malformed.self) {
            _ = try Self.nodes("<?xml version=\"1.0\"?>\n<!DOCTYPE a [<!ENTITY e \"expanded\">]>\n<a>x &e; y</a>")
        }
        #expect(declared?.reason.contains("&e;") == true, "\(declared?.reason ?? "")")
        #expect(declared?.line == 3)
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("or-xxe-\(UUID().uuidString)")
        try Data("the secret".utf8).write(to: secret)
        defer { try? FileManager.default.removeItem(at: secret) }
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY s SYSTEM \"file://\(secret.path)\">]><a>&s;</a>"
        var texts: [String] = []
        let external = #expect(throws: XMLReader.Malformed.self) {
            for node in try Self.nodes(xml) { if case .text(let text) = node { texts.append(text) } }
        }
        #expect(!texts.joined().contains("secret") && external?.reason.contains("secret") == false)
    }

    @Test func aMissingLibraryNamesThePathsTried() {
        let error = #expect(throws: LibXML2.LoadError.self) {
            try LibXML2.load(from: ["/nonexistent/libxml2.so.2", "libno-such-xml.so.9"])
        }
        #expect(error?.message.contains("/nonexistent/libxml2.so.2") == true)
        #expect(error?.message.contains("libno-such-xml.so.9") == true)
    }
}
