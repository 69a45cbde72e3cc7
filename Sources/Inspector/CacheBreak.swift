import ResponsesAPI

/// Where a later request's prompt stops being an earlier one's, in the order the prompt cache reads it:
/// model and `prompt_cache_key` first (either changed and nothing can be reused), then the tools, the
/// instructions and the input items.
public enum CacheBreak: Sendable, Hashable {
    case model(from: String?, to: String?)
    case cacheKey(from: String?, to: String?)
    /// The two requests continue different chains (`previous_response_id`).
    case chain(from: String?, to: String?)
    /// The same tools in another order.
    case toolsReordered(from: [String], to: [String])
    case toolAdded(index: Int, name: String)
    case toolRemoved(index: Int, name: String)
    /// A tool's definition changed; `path` is the first field that differs (`parameters.properties.unit`).
    case toolChanged(index: Int, name: String, path: String)
    case instructions(TextDifference)
    /// Input item `index` (from 0) differs: in its text, or in a field.
    case item(index: Int, kind: String, text: TextDifference?, path: String?)
    /// The later request has fewer input items than the earlier one had (history trimmed or compacted).
    case itemsDropped(kept: Int, earlier: Int)
}

extension CacheBreak {
    /// The break between `earlier` and `later`, and the earlier prompt's bytes they share before it (the
    /// whole of it when there is no break). `chained`: `later` continues `earlier` by `previous_response_id`,
    /// so the server puts `earlier`'s input and output before `later`'s own, and only the tools and
    /// instructions can differ.
    static func find(earlier: CachePrompt, later: CachePrompt, chained: Bool) -> (CacheBreak?, common: Int) {
        if earlier.model != later.model { return (.model(from: earlier.model, to: later.model), 0) }
        if earlier.cacheKey != later.cacheKey { return (.cacheKey(from: earlier.cacheKey, to: later.cacheKey), 0) }
        var common = 0
        if let toolBreak = toolBreak(earlier.tools, later.tools, common: &common) { return (toolBreak, common) }
        if earlier.instructions != later.instructions {
            let difference = TextDifference(earlier.instructions, later.instructions)
            return (.instructions(difference), common + difference.offset)
        }
        common += earlier.instructions.utf8.count
        if chained { return (nil, earlier.byteCount) }
        if earlier.previousResponseID != later.previousResponseID {
            return (.chain(from: earlier.previousResponseID, to: later.previousResponseID), common)
        }
        for (index, item) in earlier.items.enumerated() {
            guard index < later.items.count else {
                return (.itemsDropped(kept: later.items.count, earlier: earlier.items.count), common)
            }
            let other = later.items[index]
            if item == other {
                common += item.serialized().count
                continue
            }
            let kind = CachePrompt.kind(of: item)
            if let a = CachePrompt.text(of: item), let b = CachePrompt.text(of: other), a != b {
                let difference = TextDifference(a, b)
                return (.item(index: index, kind: kind, text: difference, path: nil), common + difference.offset)
            }
            let path = JSONDiff(item, other).changes.first?.path ?? ""
            return (.item(index: index, kind: kind, text: nil, path: path), common)
        }
        return (nil, common)
    }

    private static func toolBreak(_ a: [JSONValue], _ b: [JSONValue], common: inout Int) -> CacheBreak? {
        guard a != b else {
            common += a.reduce(0) { $0 + $1.serialized().count }
            return nil
        }
        let names = (a.map(CachePrompt.name(ofTool:)), b.map(CachePrompt.name(ofTool:)))
        if a.count == b.count, Set(a) == Set(b) { return .toolsReordered(from: names.0, to: names.1) }
        for index in 0..<max(a.count, b.count) {
            guard index < a.count else { return .toolAdded(index: index, name: names.1[index]) }
            guard index < b.count else { return .toolRemoved(index: index, name: names.0[index]) }
            if a[index] == b[index] {
                common += a[index].serialized().count
                continue
            }
            if names.0[index] != names.1[index] {
                // A tool inserted before this one shifts the rest; one taken out likewise.
                if !names.0.contains(names.1[index]) { return .toolAdded(index: index, name: names.1[index]) }
                if !names.1.contains(names.0[index]) { return .toolRemoved(index: index, name: names.0[index]) }
            }
            let path = JSONDiff(a[index], b[index]).changes.first?.path ?? ""
            return .toolChanged(index: index, name: names.0[index], path: path)
        }
        return nil
    }
}
