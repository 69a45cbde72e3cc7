import Foundation
import Inspector
import Mustache
import Workbench

/// `inspect report`: one self-contained HTML file (styles and script inline, charts as inline SVG, nothing
/// fetched when it is opened) rendered from `inspector/report.mustache`, written with mode 0600 (it holds
/// request bodies, redacted as the store keeps them).
extension InspectRunner {
    public func report(since: Date?, model: String?, to path: String) async -> ExitStatus {
        guard let templateURL = ShippedFiles.url("inspector/report.mustache") else {
            diagnostics.write("error: the report template inspector/report.mustache is missing (reinstall with scripts/install.sh)\n")
            return .apiError
        }
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: String(contentsOf: templateURL, encoding: .utf8))
        } catch {
            diagnostics.write("error: \(templateURL.path): \(error)\n")
            return .apiError
        }
        return await withStore { store in
            let range = [since.map { "since \(InspectorStore.timestamp($0))" }, model.map { "model \($0)" }]
                .compactMap { $0 }.joined(separator: ", ")
            var builder = InspectReport.Builder(store: store.path, range: range.isEmpty ? "all exchanges" : range, now: environment.now())
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
