import Foundation
import ResponsesAPI
import Yams

extension EvalSuiteReader {
    /// `cites: README.md`, `cites: {document: guide.pdf, page: 3}`, or a list of either.
    mutating func readCitations(_ node: Node, _ keyPath: String) -> [EvalCitation]? {
        let items: [Node]
        if case .sequence(let list) = node { items = Array(list) } else { items = [node] }
        guard !items.isEmpty else {
            report(node, keyPath, "expected a document's name, {document: NAME, page: N}, or a list of them")
            return nil
        }
        var citations: [EvalCitation] = []
        for item in items {
            if case .scalar = item {
                guard let name = string(item, keyPath), !name.isEmpty else { continue }
                citations.append(EvalCitation(document: name))
                continue
            }
            guard let fields = pairs(item, keyPath, known: ["document", "page"]) else { continue }
            var document: String?
            var page: Int?
            for (field, _, value) in fields {
                if field == "document" { document = string(value, "\(keyPath).document") }
                if field == "page" {
                    guard tag(value) == .int, let number = value.scalar.flatMap({ Int($0.string) }), number >= 1 else {
                        report(value, "\(keyPath).page", "expected a page number, 1 or more")
                        continue
                    }
                    page = number
                }
            }
            guard let document, !document.isEmpty else {
                report(item, keyPath, "a citation needs document: (the document's file name, as the library shows it)")
                continue
            }
            citations.append(EvalCitation(document: document, page: page))
        }
        return citations.count == items.count ? citations : nil
    }

    /// `judge: {rubric: TEXT, preset: NAME, threshold: 0.7}`.
    mutating func readJudge(_ node: Node, _ keyPath: String, suite: inout EvalSuite) -> EvalJudgeSpec? {
        guard let fields = pairs(node, keyPath, known: ["rubric", "preset", "threshold"]) else { return nil }
        var spec = EvalJudgeSpec(rubric: "")
        var sawRubric = false
        for (field, _, value) in fields {
            switch field {
            case "rubric":
                sawRubric = true
                spec.rubric = string(value, "\(keyPath).rubric") ?? ""
            case "preset":
                guard let name = string(value, "\(keyPath).preset") else { continue }
                spec.preset = name
                if suite.judgePresetLocations[name] == nil { suite.judgePresetLocations[name] = location(value) }
            default:
                guard let given = number(value, "\(keyPath).threshold") else { continue }
                if given > 1 { report(value, "\(keyPath).threshold", "a threshold is between 0 and 1") }
                spec.threshold = given
            }
        }
        guard sawRubric, !spec.rubric.isEmpty else {
            report(node, keyPath, "judge needs rubric: (what the answer is graded against)")
            return nil
        }
        return spec
    }
}
