import Foundation

/// A point in time as the `--since` and `--before` flags take it: `2026-11-21`, `2026-11-21T14:00:00Z`
/// (or with an offset), or a span ago: `90m`, `2h`, `3d`, `1w`.
public enum TimeArgument {
    public static func parse(_ text: String, flag: String, now: Date = Date()) throws(ConsoleError) -> Date {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let unit = trimmed.last, let amount = Double(trimmed.dropLast()), amount >= 0 {
            let seconds: Double? =
                switch unit {
                case "s": 1
                case "m": 60
                case "h": 3600
                case "d": 86400
                case "w": 604_800
                default: nil
                }
            if let seconds { return now.addingTimeInterval(-amount * seconds) }
        }
        if let date = try? Date(trimmed, strategy: .iso8601) { return date }
        let day = DateFormatter()
        day.locale = Locale(identifier: "en_US_POSIX")
        day.timeZone = TimeZone(identifier: "UTC")
        day.dateFormat = "yyyy-MM-dd"
        if let date = day.date(from: trimmed) { return date }
        throw ConsoleError(
            "\(flag) '\(text)' is not a time: write 2026-11-21, 2026-11-21T14:00:00Z, or a span ago such as 2h or 3d")
    }
}
