import Foundation
import Inspector
import Mustache
import ResponsesAPI
import Untrusted
import Workbench

/// `inspect report`: one self-contained HTML file (styles and script inline, charts as inline SVG, nothing
/// fetched when it is opened) rendered from `inspector/report.mustache`, written with mode 0600 (it holds
/// request bodies, redacted as the store keeps them).
extension InspectRunner {
    public func report(since: Date?, model: String?, to path: String) async -> ExitStatus {
        guard let templateURL = ShippedFiles.url("inspector/report.mustache") else {
            diagnostics.write(
                "error: the report template inspector/report.mustache is missing (reinstall with scripts/install.sh)\n")
            return .apiError
        }
        let template: MustacheTemplate
        do {
            // Every value escaped one Unicode scalar at a time: swift-mustache's own HTML escaping goes by
            // `Character`, and a quote followed by a combining mark came out raw (an attribute ended, an event
            // handler began). The pragma is put in front here, so that no template can leave it out.
            MustacheContentTypes.register(ScalarHTMLContent(), named: ScalarHTMLContent.name)
            template = try MustacheTemplate(
                string: "{{% CONTENT_TYPE: \(ScalarHTMLContent.name)}}"
                    + String(contentsOf: templateURL, encoding: .utf8))
        } catch {
            diagnostics.write("error: \(templateURL.path): \(error)\n")
            return .apiError
        }
        return await withReader { store in
            let range = [since.map { "since \(InspectorStore.timestamp($0))" }, model.map { "model \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            var builder = InspectReport.Builder(
                store: store.location, range: range.isEmpty ? "all exchanges" : range, now: environment.now())
            try await store.forEachExchange(since: since) { detail in
                if let model, detail.summary.model != model { return }
                builder.add(detail)
            }
            let report = builder.finish()
            let html = template.render(report.values)
            let url = URL(fileURLWithPath: path)
            do {
                try Data(html.utf8).write(to: url, options: .atomic)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            } catch {
                throw ConsoleError("cannot write \(path): \(error.localizedDescription)", exitStatus: .apiError)
            }
            output.write("wrote \(path): \(report.count) exchange\(report.count == 1 ? "" : "s")\n")
            return .success
        }
    }
}

/// HTML escaping by Unicode scalar for the report's values (`HTMLEscaping`).
struct ScalarHTMLContent: MustacheContentType {
    static let name = "HTML_BY_SCALAR"

    func escapeText(_ text: String) -> String {
        HTMLEscaping.escape(text)
    }
}
