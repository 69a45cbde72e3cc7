import Foundation

/// Writes small, valid PDF files for tests: pages of text in Helvetica (a real text layer poppler reads),
/// or a page that is only an image (a scan, which only OCR reads). Offsets in the cross-reference table
/// are computed, so every reader accepts the files.
public enum PDFWriter {
    /// A PDF whose pages hold `pages[n]`'s lines, top to bottom. Text in Latin-1 (German, French, …) is written
    /// in the font's WinAnsi encoding, so a reader gets its letters back.
    public static func text(pages: [[String]], title: String? = nil) -> Data {
        var objects: [Data] = []
        // 1: catalog, 2: pages, 3: font, then per page: page object, content stream.
        let pageIDs = pages.indices.map { 4 + $0 * 2 }
        objects.append(Data("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        objects.append(
            Data(
                "<< /Type /Pages /Kids [\(pageIDs.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>"
                    .utf8))
        objects.append(Data("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".utf8))
        for (index, lines) in pages.enumerated() {
            var stream = "BT /F1 14 Tf 72 740 Td 18 TL\n"
            for line in lines { stream += "(\(escape(line))) Tj T*\n" }
            stream += "ET"
            let bytes = stream.data(using: .isoLatin1) ?? Data(stream.utf8)
            objects.append(
                Data(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageIDs[index] + 1) 0 R >>"
                        .utf8))
            objects.append(Data("<< /Length \(bytes.count) >>\nstream\n".utf8) + bytes + Data("\nendstream".utf8))
        }
        var info: String?
        if let title { info = "<< /Title (\(escape(title))) >>" }
        return assemble(objects, info: info)
    }

    /// A one-page PDF set in two columns, as journals and reports are: `left`'s lines from the top of the
    /// left column, `right`'s beside them in the right one (10-point Helvetica).
    public static func twoColumns(left: [String], right: [String]) -> Data {
        var stream = "BT /F1 10 Tf 12 TL\n1 0 0 1 72 700 Tm\n"
        for line in left { stream += "(\(escape(line))) Tj T*\n" }
        stream += "1 0 0 1 320 700 Tm\n"
        for line in right { stream += "(\(escape(line))) Tj T*\n" }
        stream += "ET"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
            "<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
        ]
        return assemble(objects.map { Data($0.utf8) }, info: nil)
    }

    /// A one-page PDF that is only a grey image (`width` × `height` bytes, one per pixel), as a scanner makes.
    public static func image(width: Int, height: Int, grey pixels: Data) -> Data {
        var objects: [Data] = []
        objects.append(Data("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        objects.append(Data("<< /Type /Pages /Kids [4 0 R] /Count 1 >>".utf8))
        var image = Data(
            "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace /DeviceGray /BitsPerComponent 8 /Length \(pixels.count) >>\nstream\n"
                .utf8)
        image.append(pixels)
        image.append(Data("\nendstream".utf8))
        objects.append(image)
        let content = "q 612 0 0 792 0 0 cm /Im1 Do Q"
        objects.append(
            Data(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 3 0 R >> >> /Contents 5 0 R >>"
                    .utf8))
        objects.append(Data("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream".utf8))
        return assemble(objects, info: nil)
    }

    static func assemble(_ objects: [Data], info: String?) -> Data {
        var data = Data("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        var all = objects
        if let info { all.append(Data(info.utf8)) }
        for (index, object) in all.enumerated() {
            offsets.append(data.count)
            data.append(Data("\(index + 1) 0 obj\n".utf8))
            data.append(object)
            data.append(Data("\nendobj\n".utf8))
        }
        let xref = data.count
        var table = "xref\n0 \(all.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        let infoRef = info == nil ? "" : " /Info \(all.count) 0 R"
        table += "trailer\n<< /Size \(all.count + 1) /Root 1 0 R\(infoRef) >>\nstartxref\n\(xref)\n%%EOF\n"
        data.append(Data(table.utf8))
        return data
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "(", with: "\\(")
            .replacingOccurrences(of: ")", with: "\\)")
    }
}
