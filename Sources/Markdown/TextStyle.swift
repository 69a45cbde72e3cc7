/// The look of a run of rendered text: emphasis and a colour (a plain value: rendering copies and compares
/// styles for every word, so a link's target travels with the run instead). Written out as ANSI SGR
/// sequences when colours are on; with colours off only the structure remains.
struct TextStyle: Hashable, Sendable {
    enum Color: String, Sendable, CaseIterable {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case magenta = "35"
        case cyan = "36"
        case gray = "90"
    }

    /// The attributes and colour as a number below 512: what the SGR codes depend on, and the whole of the
    /// value (a style is copied, compared and looked up for every word: one number makes each of those one
    /// instruction). Bits 0–5: bold, italic, underline, strike, dim, code; bits 6–8: the colour (0 for none,
    /// else its index in `Color.allCases` plus one).
    private(set) var key: Int = 0

    init(
        bold: Bool = false, italic: Bool = false, underline: Bool = false, strike: Bool = false, dim: Bool = false,
        code: Bool = false, color: Color? = nil
    ) {
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.strike = strike
        self.dim = dim
        self.code = code
        self.color = color
    }

    /// The style whose key is `key` (below 512).
    init(key: Int) {
        self.key = key
    }

    var bold: Bool {
        get { flag(1) }
        set { set(1, newValue) }
    }
    var italic: Bool {
        get { flag(2) }
        set { set(2, newValue) }
    }
    var underline: Bool {
        get { flag(4) }
        set { set(4, newValue) }
    }
    var strike: Bool {
        get { flag(8) }
        set { set(8, newValue) }
    }
    var dim: Bool {
        get { flag(16) }
        set { set(16, newValue) }
    }
    var code: Bool {
        get { flag(32) }
        set { set(32, newValue) }
    }

    var color: Color? {
        get { key >> 6 == 0 ? nil : Color.allCases[key >> 6 - 1] }
        set { key = key & 63 | (newValue.map { Color.allCases.firstIndex(of: $0)! + 1 } ?? 0) << 6 }
    }

    private func flag(_ bit: Int) -> Bool { key & bit != 0 }

    private mutating func set(_ bit: Int, _ on: Bool) {
        key = on ? key | bit : key & ~bit
    }

    static let plain = TextStyle()

    var isPlain: Bool { key == 0 }

    /// The SGR parameters, in a fixed order.
    var parameters: String {
        var codes = ""
        func add(_ code: String) { codes += codes.isEmpty ? code : ";" + code }
        if bold { add("1") }
        if dim { add("2") }
        if italic { add("3") }
        if underline { add("4") }
        if strike { add("9") }
        if let color { add(color.rawValue) } else if code { add("36") }
        return codes
    }

    /// `text` in this style: SGR on, the text, SGR off (each run closes its own style, so a cut stream
    /// never leaves the terminal styled).
    func apply(_ text: String, colors: Bool) -> String {
        let codes = parameters
        guard colors, !text.isEmpty, !codes.isEmpty else { return text }
        return "\u{1B}[\(codes)m" + text + "\u{1B}[0m"
    }
}
