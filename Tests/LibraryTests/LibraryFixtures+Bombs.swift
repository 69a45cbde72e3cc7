import Foundation
import Library
import TestSupport
import ZIPFoundation

/// Hostile files for the resource caps: DOCX ZIP bombs (deflated, so a few KB inflate to MB), one whose
/// headers declare a size far below what its member really inflates to.
extension LibraryFixtures {
    /// WordprocessingML of at least `bytes` bytes: paragraphs of `paragraph` characters of prose.
    static func documentXML(bytes: Int, paragraph: Int = 1000) -> Data {
        let w = #"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#
        let words = String(repeating: "otters hold hands while they sleep. ", count: paragraph / 36 + 1).prefix(
            paragraph)
        let one = Data("<w:p><w:r><w:t>\(words)</w:t></w:r></w:p>\n".utf8)
        var xml = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document \(w)><w:body>\n".utf8)
        xml.reserveCapacity(bytes + one.count + 64)
        while xml.count < bytes { xml.append(one) }
        xml.append(Data("</w:body></w:document>".utf8))
        return xml
    }

    /// A DOCX whose `word/document.xml` is `xml`, deflated.
    func deflatedDOCX(_ name: String, xml: Data) throws -> URL {
        let url = folder.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        let types = Data(
            #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#.utf8)
        for (path, data) in [("[Content_Types].xml", types), ("word/document.xml", xml)] {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    /// `deflatedDOCX`, then the uncompressed size of `word/document.xml` in its local header and in the
    /// central directory rewritten to `declared` bytes: the archive says the member is small, the deflate
    /// stream says otherwise.
    func lyingDOCX(_ name: String, xml: Data, declared: UInt32) throws -> URL {
        let url = try deflatedDOCX(name, xml: xml)
        var bytes = [UInt8](try Data(contentsOf: url))
        let member = Array("word/document.xml".utf8)
        var patched = 0
        func little(_ value: UInt32, at offset: Int) {
            for index in 0..<4 { bytes[offset + index] = UInt8((value >> (8 * UInt32(index))) & 0xFF) }
        }
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        var offset = 0
        while offset + 46 < bytes.count {
            if bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]),
                bytes[(offset + 30)...].starts(with: member), u16(offset + 26) == member.count
            {
                little(declared, at: offset + 22)  // local file header: uncompressed size
                patched += 1
            } else if bytes[offset..<offset + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]),
                bytes[(offset + 46)...].starts(with: member), u16(offset + 28) == member.count
            {
                little(declared, at: offset + 24)  // central directory: uncompressed size
                patched += 1
            }
            offset += 1
        }
        guard patched == 2 else {
            throw SubprocessError("expected two headers for word/document.xml, found \(patched)")
        }
        try Data(bytes).write(to: url)
        return url
    }
}
