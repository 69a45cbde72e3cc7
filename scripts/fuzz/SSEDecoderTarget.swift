// libFuzzer target: the SSE decoder. Built by scripts/fuzz.sh together with ResponsesAPI's wire-format
// sources (not a package target). Every input is decoded whole, in chunks whose sizes come from the input
// itself, byte by byte, and by a decoder that moves even short data lines; all must give the same events (the decoder promises that chunking never
// changes what it emits), and each event must decode into a ResponseStreamEvent without trapping, its
// fast path agreeing with the general one.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSEDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = decodeSSE([bytes[...]])
    var chunks: [ArraySlice<UInt8>] = []
    var start = 0
    var seed = UInt64(size) &* 0x9E37_79B9_7F4A_7C15
    while start < bytes.count {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let length = min(bytes.count - start, Int(seed >> 58) + 1)
        chunks.append(bytes[start..<(start + length)])
        start += length
    }
    let chunked = decodeSSE(chunks)
    let single = decodeSSE(bytes.indices.map { bytes[$0...$0] })
    precondition(whole == chunked, "chunking changed the events")
    precondition(whole == single, "byte-by-byte feeding changed the events")
    // A decoder that moves every data line over 4 bytes instead of copying it gives the same events.
    precondition(decodeSSE(chunks, longLine: 4) == whole, "moving long data lines changed the events")
    precondition(
        decodeSSE(chunks, longLine: 4, hint: size / 2) == whole, "room asked for long lines changed the events")
    for event in whole where !event.isDoneMarker {
        if let decoded = try? ResponseStreamEvent(event) {
            precondition(decoded == (try? ResponseStreamEvent(general: event)), "fast and general paths disagree")
        }
    }
    return 0
}

func decodeSSE(_ chunks: [ArraySlice<UInt8>], longLine: Int? = nil, hint: Int = 0) -> [ServerSentEvent] {
    var decoder = longLine.map(SSEDecoder.init(longLine:)) ?? SSEDecoder()
    decoder.longLineHint = hint
    var events: [ServerSentEvent] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { decoder.push($0) { events.append($0) } }
    }
    decoder.finish { events.append($0) }
    return events
}
