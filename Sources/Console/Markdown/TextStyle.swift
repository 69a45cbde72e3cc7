/// The look of a run of rendered text: emphasis and a colour (a plain value: rendering copies and compares
/// styles for every word, so a link's target travels with the run instead). Written out as ANSI SGR
/// sequences when colours are on; with colours off only the structure remains.
struct TextStyle: Hashable, Sendable {
    enum Color: String, Sendable { case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", gray = "90" }

    var bold = false
    var italic = false
    var underline = false
    var strike = false
    var dim = false
    var code = false
    var color: Color?

    static let plain = TextStyle()

    var isPlain: Bool { key == 0 }

    /// The attributes and colour as a number below 512: what the SGR codes depend on.
    var key: Int {
        var bits = 0
        if bold { bits |= 1 }
        if italic { bits |= 2 }
        if underline { bits |= 4 }
        if strike { bits |= 8 }
        if dim { bits |= 16 }
        if code { bits |= 32 }
        let colorIndex = switch color {
        case nil: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .gray: 7
        }
        return bits | colorIndex << 6
    }

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
