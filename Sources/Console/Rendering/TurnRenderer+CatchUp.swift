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

    /// How many UTF-8 bytes of each output_text part the turn has shown, for the catch-up of a part's late
    /// text. A turn has a part or two, and a delta nearly always belongs to the part of the one before: the
    /// parts are looked through, the last one first, instead of hashing every delta's item id into a
    /// dictionary (SipHash over some fifty bytes, 250,000 times in a 50 MB answer of small deltas).
    struct ShownBytes {
        private var parts: [(part: PartKey, bytes: Int)] = []
        private var last = 0

        /// The bytes shown of `part`; nil when none were.
        subscript(part: PartKey) -> Int? {
            position(of: part).map { parts[$0].bytes }
        }

        /// Counts `bytes` more as shown of `part`.
        mutating func add(_ bytes: Int, to part: PartKey) {
            if let position = position(of: part) {
                parts[position].bytes += bytes
                last = position
            } else {
                parts.append((part, bytes))
                last = parts.count - 1
            }
        }

        private func position(of part: PartKey) -> Int? {
            if last < parts.count, parts[last].part == part { return last }
            return parts.firstIndex { $0.part == part }
        }
    }

    /// Shows `delta` as the next text of `part`.
    mutating func showText(_ delta: String, part: PartKey) {
        noteFirstToken()
        enter(.text)
        write(delta, wrap: true)
        if options.keepsText { text += delta }
        if options.citations { partTexts["\(part.item):\(part.part)", default: ""] += delta }
        shownBytes.add(delta.utf8.count, to: part)
    }

    /// Counts a delta shown before this renderer began (by an earlier process, for `attach`) as shown.
    mutating func markShown(_ delta: ResponseStreamEvent.TextDelta) {
        let part = PartKey(item: delta.itemID, part: delta.partIndex)
        shownBytes.add(delta.delta.utf8.count, to: part)
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
