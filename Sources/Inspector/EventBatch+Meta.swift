extension EventBatch {
    /// The most one row of `meta` can take: a comma, the brackets, four commas and five integers of at most
    /// 20 characters each (a sign and 19 digits), or `null` for the sequence number.
    static let metaRowCapacity = 1 + 2 + 4 + 5 * 20

    /// Writes one event's row of `meta`, `[sequence_number,offset_us,type,start,length]` with a comma before
    /// it unless it is the first, so that it ends just before `end` (with room for `metaRowCapacity` bytes
    /// before it), and returns where it starts. Written from its end, no number's length has to be known
    /// first. In place, a row costs a few dozen instructions; appended a number at a time (a temporary
    /// buffer and a generic append each) it cost about 900, a tenth of a small delta's whole recording.
    static func writeMetaRow(
        sequenceNumber: Int?, micros: Int, type: Int, start: Int, length: Int, first: Bool,
        endingAt end: UnsafeMutablePointer<UInt8>
    ) -> UnsafeMutablePointer<UInt8> {
        var cursor = end - 1
        cursor.pointee = UInt8(ascii: "]")
        func field(_ value: Int) {
            cursor = writeDecimal(value, endingAt: cursor) - 1
            cursor.pointee = UInt8(ascii: ",")
        }
        field(length)
        field(start)
        field(type)
        field(micros)
        if let sequenceNumber {
            cursor = writeDecimal(sequenceNumber, endingAt: cursor)
        } else {
            cursor -= 4
            cursor.update(from: Self.null.utf8Start, count: 4)
        }
        cursor -= 1
        cursor.pointee = UInt8(ascii: "[")
        if !first {
            cursor -= 1
            cursor.pointee = UInt8(ascii: ",")
        }
        return cursor
    }

    /// Writes the decimal digits of `value` (with a sign when negative) so that they end just before `end`,
    /// and returns where they start (at most 20 bytes before): two digits at a time, from a table.
    static func writeDecimal(_ value: Int, endingAt end: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var magnitude = value.magnitude
        var cursor = end
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(magnitude % 100) &* 2
            magnitude /= 100
            cursor -= 2
            cursor[0] = pairs[pair]
            cursor[1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(magnitude) &* 2
            cursor -= 2
            cursor[0] = pairs[pair]
            cursor[1] = pairs[pair + 1]
        } else {
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
        }
        if value < 0 {
            cursor -= 1
            cursor.pointee = UInt8(ascii: "-")
        }
        return cursor
    }

    private static let null: StaticString = "null"
    /// "00", "01", … "99", one after another (a literal: no lazy initialisation to check on each use).
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
}
