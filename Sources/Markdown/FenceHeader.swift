import Foundation

/// What a code fence's info string decides: the name shown in the block's header, cut to the room beside
/// the rule, the header's line as it is written, and the language its lines are highlighted as.
struct FenceHeader: Sendable {
    /// The info string's bytes (the renderer keeps the last headers and finds one by these and the room).
    let info: [UInt8]
    let room: Int
    let name: String
    let language: LanguageSyntax?
    /// `─── name`, dimmed when there are colours, and a line feed.
    let line: [UInt8]

    init(info infoBytes: ArraySlice<UInt8>, room: Int, colors: Bool) {
        let info = String(decoding: infoBytes, as: UTF8.self)
        self.info = Array(infoBytes)
        self.room = room
        self.language = LanguageSyntax.named(info)
        // (Indents are spaces: their byte count is their width, without counting characters.)
        if info.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F || $0 == 0x20 }) {
            // ASCII (what a fence's info nearly always is): a column per byte.
            name = String(info.utf8.prefix { $0 != 0x20 }.prefix(room))!
        } else {
            var name = ""
            var nameWidth = 0
            for character in info.prefix(while: { $0 != " " && $0 != "\t" }) {
                let width = DisplayWidth.of(character)
                guard nameWidth + width <= room else { break }
                name.append(character)
                nameWidth += width
            }
            self.name = name
        }
        let rule = name.isEmpty ? "───" : "─── " + name
        line = Array(((colors ? TextStyle(dim: true).apply(rule, colors: true) : rule) + "\n").utf8)
    }

    /// Whether this is the header of `info` in `room` columns (compared as bytes: `==` on strings takes `é`
    /// and `e\u{301}` for the same, and the name shown keeps the bytes).
    func matches(_ info: ArraySlice<UInt8>, room: Int) -> Bool {
        guard self.room == room, self.info.count == info.count else { return false }
        return self.info.withUnsafeBufferPointer { mine in
            info.withUnsafeBufferPointer { other in
                mine.isEmpty || memcmp(mine.baseAddress!, other.baseAddress!, mine.count) == 0
            }
        }
    }
}
