import Foundation
import Workbench

/// `/var` and `/vars`: values of the preset's `{{variables}}` for the following turns.
extension REPL {
    /// `/var NAME VALUE` gives a variable a value; `/var NAME` drops the value given (back to the default).
    func varCommand(_ text: String) {
        let name = text.prefix { $0 != " " }
        guard !name.isEmpty else {
            context.diagnostics.write("usage: /var NAME VALUE (or /var NAME to drop it); /vars lists them\n")
            return
        }
        guard TemplateVariables.isName(name) else {
            context.diagnostics.write(
                "error: /var: '\(name)' is not a variable name (a letter or _, then letters, digits, _ or -)\n")
            return
        }
        let value = text.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let key = String(name)
        if value.isEmpty {
            stack.variables[key] = nil
            let fallback = stack.preset?.variableDefaults[key].map { "its default, \($0)" } ?? "no value"
            context.output.write("{{\(key)}} dropped: \(fallback)\n")
        } else {
            stack.variables[key] = value
            let unused = stack.preset?.usedVariables.contains(key) == true ? "" : " (the preset in use does not use it)"
            context.output.write("{{\(key)}} = \(value)\(unused)\n")
        }
    }

    /// `/vars`: each variable the preset uses or declares, its value and where the value comes from.
    func varsCommand() {
        guard let preset = stack.preset else {
            context.output.write("No preset in use: variables are {{NAME}} in a preset's texts (/preset use NAME).\n")
            return
        }
        let defaults = preset.variableDefaults
        var names = preset.usedVariables
        for name in preset.variables.keys.sorted() where !names.contains(name) { names.append(name) }
        for name in stack.variables.keys.sorted() where !names.contains(name) { names.append(name) }
        guard !names.isEmpty else {
            context.output.write("The preset \(preset.name) uses no variables.\n")
            return
        }
        var rows = [["NAME", "VALUE", "FROM"]]
        for name in names {
            if let value = stack.variables[name] {
                rows.append([name, value, "/var or -v"])
            } else if let value = defaults[name] {
                rows.append([name, value, "default"])
            } else {
                rows.append([name, "(none: a turn is refused until /var \(name) VALUE)", "-"])
            }
        }
        context.output.write(InspectorPresenter.render(rows))
    }
}
