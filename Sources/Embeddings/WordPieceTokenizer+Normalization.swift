/// BertNormalizer and BertPreTokenizer, scalar by scalar, as `tokenizers` defines them (its Rust code is
/// the reference: `char::is_whitespace`, "other" categories as control, its list of CJK blocks).
extension WordPieceTokenizer {
    /// Control and unassigned characters removed, whitespace made a space, CJK ideographs set apart by
    /// spaces, accents stripped, then lower-cased (in that order: a capital whose lower case carries a
    /// mark, as İ, keeps it).
    static func normalize(_ text: Substring) -> [Unicode.Scalar] {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || isControl(scalar) { continue }
            if isWhitespace(scalar) {
                cleaned.append(" ")
            } else if isChineseCharacter(scalar) {
                cleaned.append(" ")
                cleaned.append(scalar)
                cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(cleaned.count)
        let isASCII = cleaned.allSatisfy(\.isASCII)
        let decomposed = isASCII ? String(cleaned) : String(cleaned).decomposedStringWithCanonicalMapping
        for scalar in decomposed.unicodeScalars {
            if scalar.isASCII {
                result.append(scalar.value >= 65 && scalar.value <= 90 ? Unicode.Scalar(scalar.value + 32)! : scalar)
                continue
            }
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let lower = scalar.properties.lowercaseMapping
            if lower.unicodeScalars.count == 1, lower.unicodeScalars.first == scalar {
                result.append(scalar)
            } else {
                result.append(contentsOf: lower.unicodeScalars)
            }
        }
        return result
    }

    /// Words: runs between whitespace, each punctuation character a word of its own.
    static func words(_ scalars: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
        var words: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in scalars {
            if scalar.properties.isWhitespace {
                if !current.isEmpty {
                    words.append(current)
                    current = []
                }
            } else if isPunctuation(scalar) {
                if !current.isEmpty {
                    words.append(current)
                    current = []
                }
                words.append([scalar])
            } else {
                current.append(scalar)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar.properties.isWhitespace
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: return true
        default: return false
        }
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let v = scalar.value
            return (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v)
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    static func isChineseCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
            0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default: return false
        }
    }
}
