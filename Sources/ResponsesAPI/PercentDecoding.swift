/// `%XX` escapes decoded, as a URL's path and query carry them: the inspector decodes a query's names to find
/// secret ones, the proxy a path's segments to refuse one that climbs out of `/v1`. A malformed escape is kept
/// as it is; with `plusAsSpace` (a query's form encoding) `+` reads as a space.
public enum PercentDecoding {
    public static func decode(_ bytes: some Collection<UInt8>, plusAsSpace: Bool = false) -> [UInt8] {
        let bytes = Array(bytes)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusAsSpace && bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return decoded
    }

    /// A hexadecimal digit's value, either case.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
