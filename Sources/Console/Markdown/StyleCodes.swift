/// Styles' opening and closing bytes. The opening ones are made once for every attribute-and-colour
/// combination (the style's key), in a table shared by every renderer.
struct StyleCodes: Sendable {
    static let table: [[UInt8]] = (0..<512).map { key in
        let parameters = TextStyle(key: key).parameters
        return parameters.isEmpty ? [] : Array("\u{1B}[\(parameters)m".utf8)
    }

    /// The last style's key and codes (neighbouring words mostly share a style).
    private var lastKey = -1
    private var lastCodes: [UInt8] = []

    mutating func open(_ style: TextStyle, link: String? = nil, hyperlinks: Bool, into out: inout RenderBuffer) {
        if hyperlinks, let link { out += "\u{1B}]8;;\(link)\u{1B}\\" }
        let key = style.key
        if key != lastKey {
            lastKey = key
            lastCodes = Self.table[key]
        }
        out.append(contentsOf: lastCodes)
    }

    func close(_ style: TextStyle, link: String? = nil, hyperlinks: Bool, into out: inout RenderBuffer) {
        if style.key != 0 { out.appendReset() }
        if hyperlinks, link != nil { out += "\u{1B}]8;;\u{1B}\\" }
    }
}
