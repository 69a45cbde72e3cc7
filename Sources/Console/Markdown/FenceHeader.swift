/// What a code fence's info string decides: the name shown in the block's header, cut to the room beside
/// the rule, and the language its lines are highlighted as.
struct FenceHeader: Sendable {
    let info: String
    let room: Int
    let name: String
    let language: LanguageSyntax?

    init(info: String, room: Int) {
        self.info = info
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
    }
}
