import Markdown

/// What the model and the server send is shown on a terminal without its control characters taking effect.
extension TurnRenderer {
    /// `text` from the model or the server (an answer without Markdown rendering, reasoning, a refusal, a
    /// timeline line, a footnote) as a terminal shows it: escape sequences, bells and bare carriage returns
    /// as their pictures (␛ ␇ ␍) and the C1 controls as �, so that an answer cannot restyle or clear the
    /// screen or set the clipboard. A carriage return at the end of a piece is dropped (it is nearly always
    /// the first half of a CRLF the next delta ends). A pipe gets the text exactly (`options.width` is nil
    /// there); the Markdown renderer shows rendered text the same way itself.
    func shown(_ text: String) -> String {
        guard options.width != nil else { return text }
        var text = text
        let visible = text.withUTF8 { MarkdownRenderer.visibleControls($0) }
        if let visible { text = visible }
        if text.utf8.last == 0x0D { text.removeLast() }
        return text
    }
}
