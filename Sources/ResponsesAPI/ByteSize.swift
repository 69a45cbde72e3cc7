import Foundation

/// Sizes as people read them: bytes, KB, MB (powers of 1024, one decimal).
public enum ByteSize {
    public static func text(_ count: Int) -> String {
        if count < 1024 { return "\(count) bytes" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / (1024 * 1024))
    }
}
