import Embeddings
import Foundation

/// The calls of libxml2's streaming reader (`xmlTextReader`) that `XMLReader` makes, loaded with `dlopen` the
/// first time a DOCX is read rather than linked through Foundation's `XMLParser`: linked, libxml2 (with ICU
/// and liblzma) was loaded and relocated by every process (0.6 ms of a hello-world's start; 0.9 ms of
/// `--version` here), though only DOCX extraction uses it (Docs/performance.md).
struct LibXML2: Sendable {
    typealias ReaderForMemory =
        @convention(c) (
            UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32
        ) -> OpaquePointer?
    typealias ReaderCall = @convention(c) (OpaquePointer?) -> Int32
    typealias ReaderText = @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?
    typealias MoveToAttribute = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?) -> Int32
    typealias FreeReader = @convention(c) (OpaquePointer?) -> Void
    typealias InitParser = @convention(c) () -> Void
    /// `xmlStructuredErrorFunc`: the user data given with it, and the error (an `xmlError`).
    typealias ErrorHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    typealias SetErrorHandler = @convention(c) (OpaquePointer?, ErrorHandler?, UnsafeMutableRawPointer?) -> Void

    let readerForMemory: ReaderForMemory
    let read: ReaderCall
    let nodeType: ReaderCall
    let isEmptyElement: ReaderCall
    let lineNumber: ReaderCall
    let constName: ReaderText
    let constValue: ReaderText
    let moveToAttribute: MoveToAttribute
    let freeReader: FreeReader
    let setErrorHandler: SetErrorHandler

    #if os(macOS)
        static let candidates = ["/usr/lib/libxml2.2.dylib", "libxml2.2.dylib"]
        static let installHint = "it ships with macOS"
    #else
        // libxml2.so.16 from 2.14 on (Debian's libxml2-16), the same reader calls and error structure.
        static let candidates = ["libxml2.so.2", "libxml2.so.16", "libxml2.so"]
        static let installHint =
            "install it (Debian: apt install libxml2, or libxml2-16 where libxml2 2.14 or later is packaged)"
    #endif

    /// Loaded once per process, on first use; the reason when libxml2 is missing.
    static let shared: Result<LibXML2, LoadError> = Result { () throws(LoadError) in try load(from: candidates) }

    struct LoadError: Error, Sendable {
        let message: String
    }

    /// An `xmlError`'s message, line and whether it is fatal. libxml2's public structure, the same since 2.0,
    /// begins `int domain; int code; char *message; xmlErrorLevel level; char *file; int line;` (a level of 3 is
    /// `XML_ERR_FATAL`): with 8-byte pointers, the message at 8, the level at 16, the file at 24, the line at 32.
    static func describe(_ error: UnsafeMutableRawPointer) -> (message: String, line: Int, fatal: Bool) {
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        let messageOffset = 2 * MemoryLayout<Int32>.size
        let levelOffset = messageOffset + pointer
        let fileOffset = (levelOffset + MemoryLayout<Int32>.size + pointer - 1) / pointer * pointer
        let message =
            error.load(fromByteOffset: messageOffset, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        let level = error.load(fromByteOffset: levelOffset, as: Int32.self)
        let line = error.load(fromByteOffset: fileOffset + pointer, as: Int32.self)
        return (message.trimmingCharacters(in: .whitespacesAndNewlines), Int(line), level == 3)
    }

    /// The first candidate that opens and has every call, its parser initialised (once, before any thread
    /// parses: libxml2 asks for that).
    static func load(from candidates: [String]) throws(LoadError) -> LibXML2 {
        let found = SharedLibrary.first(of: candidates, lacking: "not libxml2's reader") { library -> LibXML2? in
            guard let readerForMemory = library.symbol("xmlReaderForMemory", as: ReaderForMemory.self),
                let read = library.symbol("xmlTextReaderRead", as: ReaderCall.self),
                let nodeType = library.symbol("xmlTextReaderNodeType", as: ReaderCall.self),
                let isEmptyElement = library.symbol("xmlTextReaderIsEmptyElement", as: ReaderCall.self),
                let lineNumber = library.symbol("xmlTextReaderGetParserLineNumber", as: ReaderCall.self),
                let constName = library.symbol("xmlTextReaderConstName", as: ReaderText.self),
                let constValue = library.symbol("xmlTextReaderConstValue", as: ReaderText.self),
                let moveToAttribute = library.symbol("xmlTextReaderMoveToAttribute", as: MoveToAttribute.self),
                let freeReader = library.symbol("xmlFreeTextReader", as: FreeReader.self),
                let setErrorHandler = library.symbol(
                    "xmlTextReaderSetStructuredErrorHandler", as: SetErrorHandler.self),
                let initParser = library.symbol("xmlInitParser", as: InitParser.self)
            else { return nil }
            initParser()
            return LibXML2(
                readerForMemory: readerForMemory, read: read, nodeType: nodeType, isEmptyElement: isEmptyElement,
                lineNumber: lineNumber, constName: constName, constValue: constValue, moveToAttribute: moveToAttribute,
                freeReader: freeReader, setErrorHandler: setErrorHandler)
        }
        switch found {
        case .success(let library): return library
        case .failure(let passedOver):
            throw LoadError(message: "libxml2 could not be loaded\(passedOver.listed); \(installHint)")
        }
    }
}
