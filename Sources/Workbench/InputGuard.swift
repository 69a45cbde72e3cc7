import Foundation
import ResponsesAPI

/// How much text a turn may send before it is refused unread by the server: piped text is counted before
/// anything leaves, and text over the limit is refused with its estimated tokens (and cost, when the price
/// is known) and the way to send it anyway.
///
/// The limit is `console.max_input_tokens` when set (0: none), else half the model's context window when
/// the model table knows it, else `unknownModelLimit` (a local server's model: its window is not known here).
public struct InputGuard: Sendable, Equatable {
    /// The limit in tokens; nil when there is none.
    public var limit: Int?
    /// Where the limit comes from, for the message.
    public var origin: String

    /// Tokens allowed when neither the setting nor the model table gives a limit (about 128 KB of English).
    public static let unknownModelLimit = 32_768
    /// OpenAI's rule of thumb for English text: about four bytes of UTF-8 a token.
    public static let bytesPerToken = 4

    /// The guard for `model`: `setting` is `console.max_input_tokens`, `contextWindow` the model table's.
    public init(setting: Int?, model: String?, contextWindow: Int?) {
        switch (setting, contextWindow) {
        case (0?, _):
            limit = nil
            origin = "console.max_input_tokens 0"
        case (let setting?, _):
            limit = setting
            origin = "console.max_input_tokens"
        case (nil, let window?):
            limit = window / 2
            origin = "half of \(model ?? "the model")'s \(window.grouped)-token context window"
        case (nil, nil):
            limit = Self.unknownModelLimit
            origin = "the limit for a model whose context window is not known (\(model ?? "no model set"))"
        }
    }

    /// Estimated tokens in `byteCount` bytes of UTF-8 text (rounded up).
    public static func estimatedTokens(byteCount: Int) -> Int {
        (byteCount + bytesPerToken - 1) / bytesPerToken
    }

    /// Checks text of `byteCount` UTF-8 bytes; `pricePerMillion` is the model's input price, when known.
    /// Throws the refusal, which names the size, the estimated tokens and cost, the limit and the override.
    public func check(byteCount: Int, source: String, pricePerMillion: Double?) throws(InputRefusal) {
        guard let limit else { return }
        let tokens = Self.estimatedTokens(byteCount: byteCount)
        guard tokens > limit else { return }
        var message =
            "\(source): \(ByteSize.text(byteCount)) of text, about \(tokens.grouped) tokens "
            + "(at \(Self.bytesPerToken) bytes a token), over the limit of \(limit.grouped) (\(origin))"
        if let price = pricePerMillion {
            message += String(format: "; its input alone would cost about $%.2f", Double(tokens) * price / 1_000_000)
        }
        message += ": nothing was sent"
        throw InputRefusal(
            message,
            hint: "pass --allow-large-input to send it anyway, or set console.max_input_tokens (0 for no limit)")
    }
}

extension Int {
    /// The number with thousands separated by commas (10,485,760).
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return self < 0 ? "-" + result : result
    }
}
