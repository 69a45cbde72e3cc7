/// Styles' opening and closing bytes. The opening ones are made once for every attribute-and-colour
/// combination (the style's key), one after another in one shared array: writing them copies bytes out of
/// it (an array of arrays retained and released the inner array whenever the style changed, which in
/// highlighted code is at nearly every token).
struct StyleCodes: Sendable {
    /// Every key's opening codes, one after another; key `k`'s are `bytes[starts[k]..<starts[k + 1]]`.
    static let (bytes, starts): ([UInt8], [Int]) = {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for key in 0..<512 {
            starts.append(bytes.count)
            let parameters = TextStyle(key: key).parameters
            if !parameters.isEmpty { bytes += Array("\u{1B}[\(parameters)m".utf8) }
        }
        starts.append(bytes.count)
        return (bytes, starts)
    }()

    /// Appends the opening codes of the style whose key is `key`.
    static func append(key: Int, into out: inout RenderBuffer) {
        let range = starts[key]..<starts[key + 1]
        guard !range.isEmpty else { return }
        bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func open(_ style: TextStyle, link: String? = nil, hyperlinks: Bool, into out: inout RenderBuffer) {
        if hyperlinks, let link { out += "\u{1B}]8;;\(link)\u{1B}\\" }
        Self.append(key: style.key, into: &out)
    }

    func close(_ style: TextStyle, link: String? = nil, hyperlinks: Bool, into out: inout RenderBuffer) {
        if style.key != 0 { out.appendReset() }
        if hyperlinks, link != nil { out += "\u{1B}]8;;\u{1B}\\" }
    }
}
