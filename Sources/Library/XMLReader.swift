import Foundation

/// An XML document read node by node with libxml2's streaming reader (`LibXML2`): elements' starts and ends
/// (an empty element gives both), and text (character data, CDATA and whitespace alike), XML's own five
/// entities and character references replaced. An entity a DTD declares is an error rather than text left out
/// (expanding them would let a document fetch external ones); no network access, and libxml2 prints nothing.
final class XMLReader {
    enum Node: Equatable {
        case start(String)
        case end(String)
        case text(String)
    }

    /// Where the document stopped being well-formed, and libxml2's reason.
    struct Malformed: Error {
        let line: Int
        let reason: String
    }

    private let library: LibXML2
    private let reader: OpaquePointer
    /// The document, in memory of the reader's own for as long as libxml2 reads it (a `Data`'s bytes may be a
    /// temporary copy outside `withUnsafeBytes`).
    private let buffer: UnsafeMutableRawBufferPointer
    private var pendingEnd: String?
    /// The error that ended the reading: libxml2's first fatal one, else its first (a namespace error, say,
    /// which it reports and reads on past).
    private var firstError: (message: String, line: Int, fatal: Bool)?

    // xmlParserOption: no network (XML_PARSE_NONET). Errors go to the reader's handler, which keeps the one that
    // ends the reading (XML_PARSE_NOERROR would keep them from the handler too); nothing is printed.
    private static let options: Int32 = 1 << 11

    /// Nil when libxml2 cannot make a reader (out of memory, or a document of 2 GB or more).
    init?(_ bytes: Data, library: LibXML2) {
        guard bytes.count <= Int32.max else { return nil }
        self.library = library
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        bytes.copyBytes(to: buffer)
        let characters = buffer.baseAddress?.bindMemory(to: CChar.self, capacity: buffer.count)
        guard let made = library.readerForMemory(characters, Int32(bytes.count), nil, nil, Self.options) else {
            buffer.deallocate()
            return nil
        }
        reader = made
        library.setErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let reader = Unmanaged<XMLReader>.fromOpaque(context).takeUnretainedValue()
                let described = LibXML2.describe(error)
                if reader.firstError == nil || (described.fatal && reader.firstError?.fatal == false) {
                    reader.firstError = described
                }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        library.freeReader(reader)
        buffer.deallocate()
    }

    /// The next node; nil at the end of the document.
    func next() throws(Malformed) -> Node? {
        if let name = pendingEnd {
            pendingEnd = nil
            return .end(name)
        }
        while true {
            switch library.read(reader) {
            case 1: break
            case 0: return nil
            default:
                throw Malformed(
                    line: firstError?.line ?? Int(library.lineNumber(reader)), reason: firstError?.message ?? "")
            }
            switch library.nodeType(reader) {
            case 1:  // element
                let name = text(library.constName(reader))
                if library.isEmptyElement(reader) == 1 { pendingEnd = name }
                return .start(name)
            case 15:  // end of element
                return .end(text(library.constName(reader)))
            case 3, 4, 13, 14:  // text, CDATA, whitespace, significant whitespace
                return .text(text(library.constValue(reader)))
            case 5:  // an entity declared in the document's DTD: not expanded (that would fetch external ones too)
                let name = text(library.constName(reader))
                throw Malformed(
                    line: Int(library.lineNumber(reader)),
                    reason:
                        "the entity &\(name); is declared in a DTD, which this reader does not expand (DOCX parts have none)"
                )
            default:  // comments, processing instructions, the document type
                continue
            }
        }
    }

    /// The value of the current element's attribute `name` (a qualified name, `w:val`); call it right after
    /// the element's `.start`.
    func attribute(_ name: String) -> String? {
        let found = name.withCString {
            library.moveToAttribute(reader, UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self))
        }
        return found == 1 ? text(library.constValue(reader)) : nil
    }

    private func text(_ pointer: UnsafePointer<UInt8>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
