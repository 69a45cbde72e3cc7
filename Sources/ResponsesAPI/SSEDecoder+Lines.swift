#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines and events: a line's field (`data`, `event`, `id`, `retry`; comments and other fields ignored),
/// and the event dispatched at a blank line, its data buffer passed on to the next event when it can be.
extension SSEDecoder {
    mutating func flushPendingLine(emit: (ServerSentEvent) throws -> Void) rethrows {
        var line: [UInt8] = []
        swap(&line, &pendingLine)
        if pendingLineIsData {
            pendingLineIsData = false
            data = line
            hasData = true
            return
        }
        // A long line that starts an event's data (the API's final events carry a whole answer, tens of
        // megabytes on one line) becomes the data itself, its field name cut off in place: moved, not copied.
        if line.count > longLine, !hasData, !isFirstLine, line.starts(with: Self.dataPrefix) {
            line.removeSubrange(0..<(line.count > 5 && line[5] == UInt8(ascii: " ") ? 6 : 5))
            data = line
            hasData = true
            return
        }
        try line.withUnsafeBufferPointer { buffer in try processLine(buffer, emit: emit) }
        if line.capacity <= 64 * 1024 {
            line.removeAll(keepingCapacity: true)
            swap(&line, &pendingLine)
        }
    }

    mutating func processLine(
        _ line: UnsafeBufferPointer<UInt8>, emit: (ServerSentEvent) throws -> Void
    ) rethrows {
        var line = line
        if isFirstLine {
            isFirstLine = false
            if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
                line = UnsafeBufferPointer(rebasing: line[3...])
            }
        }
        guard let first = line.first else {
            try dispatch(emit: emit)
            return
        }
        if first == UInt8(ascii: ":") { return }  // comment
        var fieldEnd = line.count
        var valueStart = line.count
        if let colon = memchr(line.baseAddress!, Int32(UInt8(ascii: ":")), line.count) {
            fieldEnd = UnsafeRawPointer(colon).assumingMemoryBound(to: UInt8.self) - line.baseAddress!
            valueStart = fieldEnd + 1
            if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        }
        let field = UnsafeBufferPointer(rebasing: line[0..<fieldEnd])
        let value = UnsafeBufferPointer(rebasing: line[valueStart...])
        if Self.field(field, is: "data") {
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        } else if Self.field(field, is: "event") {
            // Streams repeat a few names: reuse the last one's String when the bytes match.
            if let last = lastEventName, last.hasUTF8(value) {
                eventName = last
            } else {
                eventName = String(decoding: value, as: UTF8.self)
                lastEventName = eventName
            }
        } else if Self.field(field, is: "id") {
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        } else if Self.field(field, is: "retry") {
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        }
        // Any other field is ignored, as the rules say.
    }

    mutating func dispatch(emit: (ServerSentEvent) throws -> Void) rethrows {
        defer {
            eventName = nil
            retry = nil
        }
        guard hasData else {
            data.removeAll(keepingCapacity: true)
            return
        }
        var payload: [UInt8] = []
        swap(&payload, &data)
        hasData = false
        eventsDispatched += 1
        var repeats: [RepeatSkimmer.Repeat] = []
        if !skimmedRepeats.isEmpty { swap(&repeats, &skimmedRepeats) }
        try emit(ServerSentEvent(event: eventName, data: payload, id: lastEventID, retry: retry, repeats: repeats))
        if payload.capacity > longLine {
            if payload.capacity > spare.capacity {
                payload.removeAll(keepingCapacity: true)
                swap(&spare, &payload)
            }
        } else if payload.capacity <= 4096, payload.capacity <= max(256, 2 * payload.count) {
            // The next event's data goes into this one's buffer: when the consumer kept nothing of it (the
            // proxy's tap, `ask`'s text deltas), emptying it frees nothing and the next event allocates
            // nothing. When it kept the bytes, emptying it makes a new buffer of the same room, so only a small
            // buffer that fits its event is passed on: a large event must not leave the kept events after it
            // holding that much room each.
            payload.removeAll(keepingCapacity: true)
            swap(&data, &payload)
        }
    }

    /// Whether a line's field name is `name` (never empty): its length, then its bytes (a generic `elementsEqual`
    /// against a stored array cost about 90 instructions a line, three lines an event).
    @inline(__always)
    private static func field(_ field: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        field.count == name.utf8CodeUnitCount && memcmp(field.baseAddress!, name.utf8Start, field.count) == 0
    }
}
