import Foundation
import ResponsesAPI

/// Why the clipboard could not be attached, naming the program that read it. A program's stderr and the
/// types it listed are kept as it wrote them: untrusted, cleaned by whoever shows them (`userMessage` is
/// one line but for them).
public struct ClipboardError: UserFacingError, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// None of wl-paste, xclip and xsel in these directories.
        case noTool(searched: [String])
        case empty
        /// Types, none of them an image or text.
        case unsupported(types: [String])
        /// Offered as this image type, the bytes were not one.
        case notImage(type: String)
        /// More than this many bytes.
        case tooLarge(limit: Int)
        case timedOut(seconds: Int64)
        /// Ended with this status (128 + a signal), saying this on stderr.
        case failed(status: Int32, errors: String)
        case cannotRun(String)
        /// Stopped by Ctrl-C.
        case interrupted
        case cannotSave(path: String, reason: String)
    }

    public var kind: Kind
    /// The program that was run; nil when none was found.
    public var tool: Clipboard.Tool?

    public init(_ kind: Kind, tool: Clipboard.Tool? = nil) {
        self.kind = kind
        self.tool = tool
    }

    public var exitStatus: ExitStatus { kind == .interrupted ? .interrupted : .usage }
    public var description: String { userMessage }

    public var userMessage: String {
        let name = tool?.rawValue ?? "the clipboard tool"
        switch kind {
        case .noTool(let searched):
            let tools = Clipboard.Tool.allCases.map(\.rawValue)
            return "no clipboard tool found: install wl-clipboard (Wayland) or xclip or xsel (X11) (looked for "
                + "\(tools.joined(separator: ", ")) in PATH \(searched.joined(separator: ":")))"
        case .empty:
            return "the clipboard is empty (\(name)); nothing attached"
        case .unsupported(let types):
            let shown = types.prefix(5).joined(separator: ", ") + (types.count > 5 ? ", ..." : "")
            return "the clipboard holds neither text nor an image (\(name) lists \(shown)); nothing attached"
        case .notImage(let type):
            return "\(name) offered \(type), but its bytes are not one; nothing attached"
        case .tooLarge(let limit):
            return "the clipboard holds more than \(ByteSize.text(limit)), the most /paste takes; nothing attached"
        case .timedOut(let seconds):
            return "\(name) did not answer within \(seconds) s and was stopped; nothing attached"
        case .failed(let status, let errors):
            let said = errors.trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(name) failed (exit status \(status))" + (said.isEmpty ? "" : ": \(said.prefix(300))")
        case .interrupted:
            return "interrupted: \(name) was stopped; nothing attached"
        case .cannotRun(let detail):
            return "cannot run \(name): \(detail)"
        case .cannotSave(let path, let reason):
            return "cannot keep the pasted bytes at \(path): \(reason)"
        }
    }

    /// What wl-paste ("Nothing is copied", "No selection") and xclip ("target ... not available") say on
    /// stderr when the clipboard holds nothing.
    static func saysEmpty(_ errors: String) -> Bool {
        let lowered = errors.lowercased()
        return lowered.contains("nothing is copied") || lowered.contains("no selection")
            || (lowered.contains("target") && lowered.contains("not available"))
    }
}
