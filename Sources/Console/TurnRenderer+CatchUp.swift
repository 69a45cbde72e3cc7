import ResponsesAPI

/// Text that arrives late: some servers (and trimmed recordings) send a part's text only in
/// `response.output_text.done` or in the terminal response, or send fewer deltas than the final text.
/// The renderer counts the bytes of each part it has shown and, when a part ends, shows what the deltas
/// left out, never anything twice. Counting bytes rather than keeping the text costs nothing on the hot
/// path, and the API's final events, which repeat the whole text, show nothing more.
extension TurnRenderer {
    /// An output_text part: its message item and its index in the item's content.
    struct PartKey: Hashable {
        var item: String
        var part: Int
    }

    /// Shows `delta` as the next text of `part`.
    mutating func showText(_ delta: String, part: PartKey) {
        noteFirstToken()
        enter(.text)
        write(delta, wrap: true)
        if options.keepsText { text += delta }
        if options.citations { partTexts["\(part.item):\(part.part)", default: ""] += delta }
        shownBytes[part, default: 0] += delta.utf8.count
    }

    /// Counts a delta shown before this renderer began (by an earlier process, for `attach`) as shown.
    mutating func markShown(_ delta: ResponseStreamEvent.TextDelta) {
        let part = PartKey(item: delta.itemID, part: delta.partIndex)
        shownBytes[part, default: 0] += delta.delta.utf8.count
        if options.citations { partTexts["\(part.item):\(part.part)", default: ""] += delta.delta }
    }

    /// Shows the end of `fullText` that the deltas of `part` did not, if any: the deltas are taken to be
    /// a prefix of the final text, as the API sends them; a final text no longer than what was shown adds
    /// nothing.
    mutating func catchUp(_ part: PartKey, fullText: String) {
        let shown = shownBytes[part] ?? 0
        let utf8 = fullText.utf8
        guard utf8.count > shown else { return }
        let start = utf8.index(utf8.startIndex, offsetBy: shown)
        guard let rest = String(utf8[start...]), !rest.isEmpty else { return }
        showText(rest, part: part)
    }

    /// Catches up every output_text part of the terminal response's messages.
    mutating func catchUp(_ response: Response) {
        for item in response.output {
            guard case .message(let message) = item, let id = message.json["id"]?.stringValue else { continue }
            for (index, part) in message.content.enumerated() {
                if case .outputText(let output) = part {
                    catchUp(PartKey(item: id, part: index), fullText: output.text)
                }
            }
        }
    }
}
