/// What a line of prose starts with on screen: spaces, then bytes (a list item's marker and task box, a
/// quote's bars, a heading's marks, with their escape codes), and the columns the whole takes. A list item's
/// prefix is made for every item: as spaces and a shared marker it is made without building a string.
struct LinePrefix: Sendable {
    var spaces = 0
    var bytes: [UInt8] = []
    /// Columns on screen (given: the bytes hold escape codes, bullets and box characters).
    var width = 0

    static let none = LinePrefix()

    /// `count` spaces.
    static func spaces(_ count: Int) -> LinePrefix {
        LinePrefix(spaces: max(count, 0), width: max(count, 0))
    }

    /// Text shown as it is, `width` columns wide.
    init(_ text: String, width: Int) {
        self.bytes = Array(text.utf8)
        self.width = width
    }

    init(spaces: Int = 0, bytes: [UInt8] = [], width: Int = 0) {
        self.spaces = spaces
        self.bytes = bytes
        self.width = width
    }

    func write(into out: inout RenderBuffer) {
        out.appendSpaces(spaces)
        if !bytes.isEmpty { out.append(contentsOf: bytes) }
    }
}
