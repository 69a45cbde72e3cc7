import ResponsesAPI
import Yams

/// Mappings: a mapping along its `ObjectSpec`, one of a `TaggedSpec`'s variants chosen by its `type`, and
/// free JSON.
extension PresetValidator {
    /// `what` names the mapping in messages about missing keys ("a file_search tool").
    mutating func object(_ node: Node, _ spec: ObjectSpec, at keyPath: String, implicit: [String], what: String?)
        -> JSONValue?
    {
        guard case .mapping(let mapping) = node else { return mismatch(node, .object(spec), keyPath) }
        var result = JSONObject()
        var ok = true
        for (keyNode, valueNode) in mapping {
            guard let key = scalarKey(keyNode, in: keyPath) else {
                ok = false
                continue
            }
            let childPath = join(keyPath, key)
            if implicit.contains(key) {
                result[key] = .string(valueNode.scalar?.string ?? "")
                locations[childPath] = location(of: valueNode)
                continue
            }
            guard let fieldSpec = spec.spec(for: key) else {
                report(
                    childPath, at: location(of: keyNode),
                    unknownKeyMessage(key, parent: keyPath, siblings: implicit + spec.fields.map(\.name)))
                ok = false
                continue
            }
            locations[childPath] = location(of: valueNode)
            if let converted = value(valueNode, fieldSpec, at: childPath) {
                result[key] = converted
            } else {
                ok = false
            }
        }
        for key in spec.required where result[key] == nil && mapping[key] == nil {
            let allowed = spec.spec(for: key)?.allowed ?? "a value"
            report(
                keyPath, at: location(of: node),
                what.map { "\($0) needs '\(key)' (\(allowed))" } ?? "missing '\(key)' (\(allowed))")
            ok = false
        }
        guard ok else { return nil }
        for issue in spec.check?(result) ?? [] {
            let path = issue.key.map { join(keyPath, $0) } ?? keyPath
            report(path, issue.message)
            ok = false
        }
        return ok ? .object(result) : nil
    }

    mutating func tagged(_ node: Node, _ spec: TaggedSpec, at keyPath: String) -> JSONValue? {
        let types = spec.variants.map(\.type)
        guard case .mapping(let mapping) = node else { return mismatch(node, .tagged(spec), keyPath) }
        guard let typeNode = mapping["type"] else {
            report(
                keyPath, at: location(of: node), "a \(spec.noun) needs 'type' (one of \(types.joined(separator: ", ")))"
            )
            return nil
        }
        let typeName = typeNode.scalar?.string ?? ""
        guard let variant = spec.variants.first(where: { $0.type == typeName }) else {
            let hint = SettingsRegistry.closest(to: typeName, in: types).map { " (did you mean \($0)?)" } ?? ""
            report(
                join(keyPath, "type"), at: location(of: typeNode),
                "'\(typeName)' is not a known \(spec.noun) type\(hint); known: \(types.joined(separator: ", "))")
            return nil
        }
        return object(node, variant.spec, at: keyPath, implicit: ["type"], what: "a \(typeName) \(spec.noun)")
    }

    mutating func json(_ node: Node, at keyPath: String) -> JSONValue? {
        switch node {
        case .scalar(let scalar):
            switch tagName(node) {
            case .null where scalar.style == .plain || scalar.style == .any: return .null
            case .bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case .int: return node.int.map(JSONValue.integer) ?? .string(scalar.string)
            case .float: return node.float.map(JSONValue.number) ?? .string(scalar.string)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [JSONValue] = []
            for (index, item) in sequence.enumerated() {
                guard let converted = json(item, at: "\(keyPath)[\(index)]") else { return nil }
                items.append(converted)
            }
            return .array(items)
        case .mapping(let mapping):
            var result = JSONObject()
            for (keyNode, valueNode) in mapping {
                guard let key = scalarKey(keyNode, in: keyPath), let converted = json(valueNode, at: join(keyPath, key))
                else { return nil }
                result[key] = converted
            }
            return .object(result)
        case .alias:
            report(keyPath, at: location(of: node), "YAML aliases are not supported in presets")
            return nil
        }
    }

    mutating func scalarKey(_ node: Node, in keyPath: String) -> String? {
        guard case .scalar(let scalar) = node else {
            report(keyPath, at: location(of: node), "a key must be a plain name, not a list or mapping")
            return nil
        }
        return scalar.string
    }

    private func unknownKeyMessage(_ key: String, parent: String, siblings: [String]) -> String {
        if let near = SettingsRegistry.closest(to: key, in: siblings) {
            return "unknown key (did you mean \(join(parent, near))?)"
        }
        let elsewhere = knownPaths.filter {
            $0.split(separator: ".").last.map(String.init) == key && $0 != join(parent, key)
        }
        if let path = elsewhere.first {
            return "unknown key (did you mean \(path)?)"
        }
        return "unknown key; known keys here: \(siblings.joined(separator: ", "))"
    }
}
