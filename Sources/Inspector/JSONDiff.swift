import ResponsesAPI

/// JSON-aware differences between two values: object members by key (order does not matter), arrays by
/// position, each change with its path (`tools[0].vector_store_ids[1]`, `reasoning.effort`).
public struct JSONDiff: Sendable, Hashable {
    public enum Change: Sendable, Hashable {
        case added(path: String, value: JSONValue)
        case removed(path: String, value: JSONValue)
        case changed(path: String, from: JSONValue, to: JSONValue)

        public var path: String {
            switch self {
            case .added(let path, _), .removed(let path, _), .changed(let path, _, _): path
            }
        }
    }

    public var changes: [Change]

    public init(_ old: JSONValue, _ new: JSONValue) {
        var changes: [Change] = []
        Self.compare(old, new, path: "", into: &changes)
        self.changes = changes
    }

    private static func compare(_ old: JSONValue, _ new: JSONValue, path: String, into changes: inout [Change]) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            for (key, value) in a {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if let other = b[key] {
                    compare(value, other, path: child, into: &changes)
                } else {
                    changes.append(.removed(path: child, value: value))
                }
            }
            for (key, value) in b where a[key] == nil {
                changes.append(.added(path: path.isEmpty ? key : "\(path).\(key)", value: value))
            }
        case (.array(let a), .array(let b)):
            for index in 0..<max(a.count, b.count) {
                let child = "\(path)[\(index)]"
                let x: JSONValue? = index < a.count ? .some(a[index]) : .none
                let y: JSONValue? = index < b.count ? .some(b[index]) : .none
                switch (x, y) {
                case (let x?, let y?): compare(x, y, path: child, into: &changes)
                case (let x?, .none): changes.append(.removed(path: child, value: x))
                case (.none, let y?): changes.append(.added(path: child, value: y))
                case (.none, .none): break
                }
            }
        default:
            if !Self.same(old, new) {
                changes.append(.changed(path: path.isEmpty ? "(root)" : path, from: old, to: new))
            }
        }
    }

    /// 1 and 1.0 are the same number.
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// One line per change: `~ path: old → new`, `+ path: value`, `- path: value` (long values cut).
    public func lines(width: Int = 100) -> [String] {
        func show(_ value: JSONValue) -> String {
            let text = value.compactString
            return text.count > width ? String(text.prefix(width)) + "…" : text
        }
        return changes.map { change in
            switch change {
            case .added(let path, let value): "+ \(path): \(show(value))"
            case .removed(let path, let value): "- \(path): \(show(value))"
            case .changed(let path, let from, let to): "~ \(path): \(show(from)) → \(show(to))"
            }
        }
    }
}
