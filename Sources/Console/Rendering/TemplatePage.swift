import Foundation
import Mustache
import Workbench

/// A page rendered from a shipped template (`inspector/NAME.mustache`), every value escaped one Unicode
/// scalar at a time (`ScalarHTMLContent`), written mode 0600: it holds answers. `replay --against --html` and
/// `eval --html`.
enum TemplatePage {
    static func write(template relative: String, values: [String: Any], to path: String) throws(ConsoleError) {
        guard let templateURL = ShippedFiles.url(relative) else {
            throw ConsoleError(
                "the page's template \(relative) is missing (reinstall with scripts/install.sh)", exitStatus: .apiError)
        }
        let html: String
        do {
            MustacheContentTypes.register(ScalarHTMLContent(), named: ScalarHTMLContent.name)
            let template = try MustacheTemplate(
                string: "{{% CONTENT_TYPE: \(ScalarHTMLContent.name)}}"
                    + String(contentsOf: templateURL, encoding: .utf8))
            html = template.render(values)
        } catch {
            throw ConsoleError("\(templateURL.path): \(error)", exitStatus: .apiError)
        }
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        } catch {
            throw ConsoleError("cannot write \(path): \(error.localizedDescription)", exitStatus: .apiError)
        }
    }
}
