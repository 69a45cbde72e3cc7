/// A long final event read in pieces by `RepeatSkimmer` (its `repeats` not empty): what its consumer reads
/// and what the recording gets.
extension ServerSentEvent {
    /// The event as a consumer of `RepeatedText.omitted` reads it: a string that was a text's whole repeat
    /// reads as "", one that went on past the text reads as what followed it (new text, which the console
    /// shows after the deltas), and one that departed from the text partway reads as "" too (what it kept
    /// is not a continuation of anything shown).
    var consumerView: ServerSentEvent {
        guard repeats.contains(where: { !$0.whole && !$0.extended }) else { return self }
        var view = self
        for skimmed in repeats.reversed() where !skimmed.whole && !skimmed.extended {
            view.data.removeSubrange(skimmed.span.start..<skimmed.restEnd)
        }
        view.repeats = []
        return view
    }

    /// The event for the recording: its cut bytes and where each text goes back. A secret in the bytes it
    /// kept (outside the repeats) is overwritten with `*`: the line is not held whole, so the inspector
    /// cannot redact it as it redacts a whole event, and the key must not reach the store.
    func recordedCut(secrets: ByteSearch.Needles) -> DeltaTexts.Cut {
        var bytes = data
        if !secrets.isEmpty { _ = secrets.mask(&bytes) }
        return (bytes, repeats.map(\.span))
    }
}
