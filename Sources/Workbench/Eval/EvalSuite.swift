import Foundation
import ResponsesAPI

/// A prompt-regression suite (`openresponses eval SUITE.yaml`): the presets its columns start from and the
/// cases, each an input (or a preset's variables) and the assertions its answer must meet. Read by
/// `EvalSuite.load`, which reports every problem as `SUITE.yaml:LINE:COLUMN`.
public struct EvalSuite: Sendable {
    public static let supportedVersion = 1

    /// The file as it was named, for messages.
    public var path: String
    public var name: String
    /// `presets: [a, b]` or `preset: a`; empty: the config file's preset (or none).
    public var presets: [String]
    public var cases: [EvalCase]
    /// Where each preset of `presets` is written, for "unknown preset" and missing variables.
    public var presetLocations: [String: SourceLocation] = [:]
    /// `similarity: word_overlap`: `similar` may compare words when the built-in model is not installed.
    public var acceptsWordOverlap = false
    /// Where the first `similar:` is written, for the error when the model is missing.
    public var similarLocation: SourceLocation?
    /// `judge_preset: NAME`: the preset of each `judge:` that names none (nil: the column's).
    public var judgePreset: String?
    /// The presets `judge:` assertions use (and `judge_preset:`), each where it is first written.
    public var judgePresetLocations: [String: SourceLocation] = [:]

    public init(path: String, name: String, presets: [String], cases: [EvalCase]) {
        self.path = path
        self.name = name
        self.presets = presets
        self.cases = cases
    }
}

/// One case of a suite: what is sent, and what the answer must meet.
public struct EvalCase: Sendable, Hashable {
    public var id: String
    /// The message, as written: never read for `{{variables}}` (nor is an `input_file`'s text).
    public var input: String
    /// Values of the preset's `{{variables}}` for this case.
    public var variables: [String: String]
    public var assertions: [EvalAssertion]
    /// Where the case begins (its `- id:` line).
    public var location: SourceLocation
    /// Answered by the local library as `library ask` answers (`library: true`, the case's or the suite's).
    public var library: Bool

    public init(
        id: String, input: String, variables: [String: String] = [:], assertions: [EvalAssertion],
        location: SourceLocation, library: Bool = false
    ) {
        self.id = id
        self.input = input
        self.variables = variables
        self.assertions = assertions
        self.location = location
        self.library = library
    }
}

/// A suite that cannot be run: every problem found, each at its `path:line:column`.
public struct EvalSuiteError: Error, Sendable, CustomStringConvertible, UserFacingError {
    public var diagnostics: [PresetDiagnostic]

    public init(diagnostics: [PresetDiagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(_ message: String, at location: SourceLocation, keyPath: String = "") {
        self.diagnostics = [PresetDiagnostic(location: location, keyPath: keyPath, message: message)]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    public var userMessage: String { description }
    public var exitStatus: ExitStatus { .usage }
}

extension EvalSuite {
    /// Reads and checks the suite at `path`: its shape, each assertion (a regex that compiles, a schema file
    /// that reads), unique case ids. Presets and variables are checked against the presets by `checkPresets`.
    public static func load(path: String) throws(EvalSuiteError) -> EvalSuite {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8)
        else {
            let reason =
                FileManager.default.fileExists(atPath: url.path) ? "cannot read it (not UTF-8 text?)" : "no such file"
            throw EvalSuiteError(reason, at: SourceLocation(path: path, line: 1, column: 1))
        }
        return try parse(text, path: path, directory: url.deletingLastPathComponent())
    }

    /// The suite in `text`; files it names (`json_schema: file`, `input_file`) are read relative to `directory`.
    public static func parse(_ text: String, path: String, directory: URL) throws(EvalSuiteError) -> EvalSuite {
        var reader = EvalSuiteReader(path: path, directory: directory)
        let suite = reader.read(text)
        guard reader.diagnostics.isEmpty, let suite else {
            throw EvalSuiteError(diagnostics: reader.sortedDiagnostics)
        }
        return suite
    }

    /// Each column's preset exists, and gives every variable its cases leave unset a value (a default): else
    /// an error at the preset's name in the suite, or at the case that leaves a variable without a value.
    /// `implicit`: the preset the columns use when the suite names none (the config file's).
    public func checkPresets(implicit: String? = nil, _ load: (String) throws(PresetError) -> Preset)
        throws(EvalSuiteError) -> [String: Preset]
    {
        var loaded: [String: Preset] = [:]
        var problems: [PresetDiagnostic] = []
        let top = SourceLocation(path: path, line: 1, column: 1)
        for name in presets + (presets.isEmpty ? [implicit].compactMap { $0 } : []) where loaded[name] == nil {
            do {
                loaded[name] = try load(name)
            } catch {
                problems.append(
                    PresetDiagnostic(
                        location: presetLocations[name] ?? top, keyPath: "presets",
                        message: "unknown preset '\(name)': \(error.description)"))
            }
        }
        var judges = Set(loaded.keys)
        for (name, location) in judgePresetLocations.sorted(by: { $0.key < $1.key })
        where judges.insert(name).inserted {
            do {
                _ = try load(name)
            } catch {
                problems.append(
                    PresetDiagnostic(
                        location: location, keyPath: "judge", message: "unknown preset '\(name)': \(error.description)")
                )
            }
        }
        for (name, preset) in loaded.sorted(by: { $0.key < $1.key }) {
            for item in cases {
                for missing in preset.resolvingVariables(item.variables).missing {
                    let written = missing.location.map { " (written at \($0))" } ?? ""
                    problems.append(
                        PresetDiagnostic(
                            location: item.location, keyPath: "cases.\(item.id).vars",
                            message:
                                "{{\(missing.name)}} of preset '\(name)'\(written) has no value: give it under vars:"))
                }
            }
        }
        guard problems.isEmpty else { throw EvalSuiteError(diagnostics: problems) }
        return loaded
    }
}
