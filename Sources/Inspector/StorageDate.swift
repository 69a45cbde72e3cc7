import Foundation

/// Dates as GRDB stores them (`yyyy-MM-dd HH:mm:ss.SSS`, UTC), written without `DateFormatter`: GRDB's own
/// conversion creates one, and its first use loads ICU's locale data — milliseconds at every start of a
/// command that records an exchange. Tested against GRDB's conversion.
enum StorageDate {
    static func string(_ date: Date) -> String {
        // As Foundation hands it to ICU: milliseconds since 1970, halves rounded up (also below zero).
        let millis = Int64(((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down))
        var seconds = time_t(millis >= 0 ? millis / 1000 : (millis - 999) / 1000)
        let fraction = Int(millis - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = ""
        text.reserveCapacity(23)
        func append(_ value: Int, digits: Int) {
            let decimal = String(value)
            text += String(repeating: "0", count: max(0, digits - decimal.count)) + decimal
        }
        append(Int(parts.tm_year) + 1900, digits: 4)
        text += "-"
        append(Int(parts.tm_mon) + 1, digits: 2)
        text += "-"
        append(Int(parts.tm_mday), digits: 2)
        text += " "
        append(Int(parts.tm_hour), digits: 2)
        text += ":"
        append(Int(parts.tm_min), digits: 2)
        text += ":"
        append(Int(parts.tm_sec), digits: 2)
        text += "."
        append(fraction, digits: 3)
        return text
    }
}
