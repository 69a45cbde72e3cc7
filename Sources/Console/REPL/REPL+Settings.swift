import Foundation
import Inspector
import Library
import ResponsesAPI
import Workbench

/// `/preset`, `/set`, `/unset`, `/reset`, `/settings`, `/model`, `/payload`, `/stream`: composing the next request.
/// A preset that fails to load is reported and changes nothing.
extension REPL {
    func presetCommand(_ arguments: [String]) {
        switch (arguments.first, arguments.count) {
        case (nil, _), ("list", 1):
            context.output.write(PresetsRunner.listText(presets, current: stack.preset?.name))
        case ("use", 2):
            do {
                let preset = try presets.load(arguments[1])
                // A preset meant for another provider takes the console there first (a new conversation).
                var moved = ""
                if let provider = preset.provider, provider != providerName {
                    try ProviderCatalog.checkProvider(of: preset, environment: context.environment)
                    guard switchProvider(to: provider) else { return }
                    moved = "Provider \(provider): \(context.configuration.baseURL); a new conversation starts.\n"
                }
                stack.use(preset)
                loadMCP()
                var line = moved + "Using preset \(preset.name)" + (preset.description.map { ": \($0)" } ?? "") + "\n"
                let kept = stack.session.assignments.map(\.key)
                if !kept.isEmpty {
                    line += "Your /set values stay on top: \(kept.joined(separator: ", ")) (/reset drops them).\n"
                }
                context.output.write(line)
            } catch {
                context.diagnostics.write(error.linesPrefixed("error: "))
            }
        case ("show", 1), ("show", 2):
            let preset: Preset
            if arguments.count == 2 {
                do { preset = try presets.load(arguments[1]) } catch {
                    context.diagnostics.write(error.linesPrefixed("error: "))
                    return
                }
            } else {
                guard let current = stack.preset else {
                    context.output.write(
                        "No preset in use (/preset use NAME picks one; /settings shows what is in effect).\n")
                    return
                }
                preset = current
            }
            context.output.write("# \(preset.url?.path ?? preset.name)\n" + preset.yaml)
        case ("save", 2):
            savePreset(named: arguments[1])
        case ("diff", 3):
            do {
                let old = try presets.load(arguments[1])
                let new = try presets.load(arguments[2])
                let diff = JSONDiff(.object(old.comparable), .object(new.comparable))
                context.output.write(
                    diff.changes.isEmpty
                        ? "\(old.name) and \(new.name) build the same requests.\n"
                        : "--- \(old.name)\n+++ \(new.name)\n" + diff.lines().joined(separator: "\n") + "\n")
            } catch {
                context.diagnostics.write(error.linesPrefixed("error: "))
            }
        default:
            context.diagnostics.write("usage: /preset list | use NAME | show [NAME] | save NAME | diff A B\n")
        }
    }

    func savePreset(named name: String) {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
            name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) })
        else {
            context.diagnostics.write("error: '\(name)' is not a usable preset name (letters, digits, - _ .)\n")
            return
        }
        let effective = settings
        let description = stack.preset?.description ?? "Saved from the console"
        // The provider in use is kept when it is a named one: the preset was tuned against that server.
        let preset = Preset(
            name: name, description: description, template: effective.template, console: effective.console,
            extraBody: effective.extraBody, provider: providerName == ProviderCatalog.defaultName ? nil : providerName)
        do {
            let replaced = presets.locate(name)
            let url = try presets.save(preset)
            stack.use(try Preset.load(from: url))
            loadMCP()
            let note =
                replaced.map {
                    $0.deletingLastPathComponent() == presets.userDirectory
                        ? " (replaced)" : " (overrides the shipped one)"
                } ?? ""
            context.output.write("Saved preset \(name) to \(url.path)\(note); it is now in use.\n")
        } catch {
            context.diagnostics.write(error.linesPrefixed("error: "))
        }
    }

    func setCommand(_ text: String) {
        guard !text.isEmpty else {
            context.diagnostics.write(
                "usage: /set KEY VALUE (for example /set reasoning.effort high); /settings lists the keys\n")
            return
        }
        let assignment: String
        if let space = text.firstIndex(of: " "), !text[..<space].contains("=") {
            assignment = text[..<space] + "=" + text[text.index(after: space)...].trimmingCharacters(in: .whitespaces)
        } else {
            assignment = text
        }
        do {
            let (_, key, value) = try SettingsRegistry.parseAssignment(assignment)
            stack.session.assign(key, value)
            let over = stack.flags.assigns(key) ? " (over the command line's value; /reset \(key) goes back to it)" : ""
            context.output.write("\(key) = \(Self.display(value))\(over)\n")
        } catch {
            context.diagnostics.write("error: /set \(error.message)\n")
        }
    }

    func unsetCommand(_ key: String) {
        guard let key = validKey(key, command: "/unset") else { return }
        let previous = settings.value(forKey: key)
        stack.session.assign(key, nil)
        context.output.write(
            previous.map { "\(key) will not be sent (it was \(Self.display($0)))\n" }
                ?? "\(key) was not set; it will not be sent\n")
    }

    func resetCommand(_ key: String) {
        if key.isEmpty {
            let count = stack.session.assignments.count
            stack.session.forgetAll()
            context.output.write(
                count == 0 ? "Nothing to reset.\n" : "Dropped \(count) /set and /unset value\(count == 1 ? "" : "s").\n"
            )
            return
        }
        guard let key = validKey(key, command: "/reset") else { return }
        guard stack.session.forget(key) else {
            context.output.write("\(key) has no /set or /unset to drop.\n")
            return
        }
        let now = settings.value(forKey: key)
        let source = stack.sources[key].map { " (from \($0))" } ?? ""
        context.output.write(now.map { "\(key) = \(Self.display($0))\(source)\n" } ?? "\(key) is not set\n")
    }

    private func validKey(_ key: String, command: String) -> String? {
        guard !key.isEmpty else {
            context.diagnostics.write("usage: \(command) KEY; /settings lists the keys\n")
            return nil
        }
        guard SettingsRegistry.descriptor(for: key) != nil else {
            context.diagnostics.write("error: \(command) \(SettingsRegistry.unknown(key).message)\n")
            return nil
        }
        return key
    }

    func settingsCommand() {
        let effective = settings
        let sources = stack.sources
        let rows = effective.leaves.map { (key: $0.key, value: Self.display($0.value), source: sources[$0.key] ?? "") }
        let keyWidth = min(rows.map(\.key.count).max() ?? 0, 32)
        let valueWidth = min(rows.map(\.value.count).max() ?? 0, 48)
        var text =
            rows.map { row in
                let value = row.value.count > 48 ? String(row.value.prefix(47)) + "…" : row.value
                return row.key.padding(toLength: max(keyWidth, row.key.count), withPad: " ", startingAt: 0) + "  "
                    + value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) + "  " + row.source
            }.joined(separator: "\n") + "\n"
        let unset = stack.session.assignments.filter { $0.value == nil }.map(\.key)
        if !unset.isEmpty { text += "not sent (/unset): \(unset.joined(separator: ", "))\n" }
        context.output.write(text)
    }

    func payloadCommand(_ text: String) {
        var input = JSONValue.string(text.isEmpty ? "<your next message>" : text)
        // With the library on, the message goes with its passages, as the turn would send it.
        if library.mode == .on, !library.answersOffline, !text.isEmpty, let augmenter = libraryAugmenter() {
            var augmented = self.session
            augmented.augmenter = augmenter
            let session = augmented
            let (result, _) = bridge.run { () async -> Result<(input: JSONValue, notes: [String]), any Error> in
                do { return .success(try await session.input(for: text)) } catch { return .failure(error) }
            }
            switch result {
            case .success(let augmented):
                for note in augmented.notes { context.diagnostics.write("note: \(note)\n") }
                input = augmented.input
            case .failure(let error):
                ErrorReport.write(error, to: context.diagnostics)
                return
            }
        }
        do {
            let composed = try session.preview(input)
            for note in composed.notes { context.diagnostics.write("note: \(note)\n") }
            context.output.write(composed.request.json.prettyPrinted() + "\n")
        } catch {
            ErrorReport.write(error, to: context.diagnostics)
        }
    }

    func streamCommand(_ text: String) {
        switch text {
        case "on": setCommand("console.stream true")
        case "off": setCommand("console.stream false")
        default: context.output.write("Streaming is \(settings.stream ? "on" : "off") (/stream on|off).\n")
        }
    }

    /// `/model`: the model in use, an alias shown with its id (`fast → gpt-4.1-mini`), and the config file's
    /// aliases; `/model NAME` uses NAME (a model id or an alias) for the following turns, as `/set model` does.
    func modelCommand(_ name: String) {
        let aliases = stack.aliases
        guard !name.isEmpty else {
            let source = stack.sources["model"].map { " (from \($0))" } ?? ""
            var text = "model \(aliases.described(stack.namedModel))\(source)\n"
            if !aliases.names.isEmpty {
                text += "aliases: " + aliases.names.map { aliases.described($0) }.joined(separator: ", ") + "\n"
            }
            context.output.write(text)
            return
        }
        guard !name.contains(" ") else {
            context.diagnostics.write("usage: /model [NAME] (a model id, or an alias from config.yaml)\n")
            return
        }
        stack.session.assign("model", .string(name))
        let over = stack.flags.assigns("model") ? " (over the command line's; /reset model goes back to it)" : ""
        context.output.write("model = \(aliases.described(name))\(over)\n")
    }

    /// A value on one line: strings bare, tools as their types, anything else as compact JSON.
    static func display(_ value: JSONValue?) -> String {
        guard let value else { return "(not set)" }
        switch value {
        case .string(let text): return text.replacingOccurrences(of: "\n", with: "⏎")
        case .array(let items) where items.allSatisfy({ $0["type"] != nil }):
            return "["
                + items.map { item in
                    let type = item["type"]?.stringValue ?? "?"
                    let detail =
                        item["name"]?.stringValue ?? item["server_label"]?.stringValue
                        ?? item["vector_store_ids"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ",")
                    return detail.flatMap { $0.isEmpty ? nil : "\(type) \($0)" } ?? type
                }.joined(separator: ", ") + "]"
        default: return value.compactString
        }
    }
}

extension Preset {
    /// What two presets are compared on: everything that shapes a request.
    var comparable: JSONObject {
        var object = document
        object["name"] = nil
        object["description"] = nil
        return object
    }
}
