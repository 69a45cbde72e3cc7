/// Why a document could not be read or stored: the document (and page, when it is one page), and what
/// went wrong, in words for the user.
public struct LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var page: Int?
    public var message: String
    /// The resource cap the file went past, when that is why it was refused (see `ResourceCaps`).
    public var cap: ResourceCaps.Cap?

    public init(path: String, page: Int? = nil, _ message: String, cap: ResourceCaps.Cap? = nil) {
        self.path = path
        self.page = page
        self.message = message
        self.cap = cap
    }

    public var description: String {
        "\(path)\(page.map { " page \($0)" } ?? ""): \(message)"
    }
}

/// A program the library runs (pdftotext, tesseract, ...) and where to get it.
public struct ExternalTool: Sendable, Hashable {
    public var name: String
    public var debianPackage: String
    public var homebrewFormula: String

    public static let pdftotext = ExternalTool(
        name: "pdftotext", debianPackage: "poppler-utils", homebrewFormula: "poppler")
    public static let pdfinfo = ExternalTool(
        name: "pdfinfo", debianPackage: "poppler-utils", homebrewFormula: "poppler")
    public static let pdftoppm = ExternalTool(
        name: "pdftoppm", debianPackage: "poppler-utils", homebrewFormula: "poppler")
    public static let tesseract = ExternalTool(
        name: "tesseract", debianPackage: "tesseract-ocr", homebrewFormula: "tesseract")

    /// The words for a missing tool.
    public var missing: String {
        "\(name) is not installed: on Debian or Ubuntu, apt-get install \(debianPackage) (scripts/setup.sh does); on macOS, brew install \(homebrewFormula)"
    }
}
