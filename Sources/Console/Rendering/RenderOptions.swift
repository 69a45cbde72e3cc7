import Foundation
import Workbench

/// How a turn is shown: colours, wrapping, and which of the extras (reasoning summaries, the tool
/// timeline, citations, the usage line) appear beside the answer.
struct RenderOptions: Sendable {
    /// ANSI colours (dim reasoning, coloured tool lines); off for `NO_COLOR` and when not a terminal.
    var colors: Bool
    /// Wrap text at this many columns; nil writes it as it comes (pipes get the exact text).
    var width: Int?
    var showReasoning: Bool
    var showUsage: Bool
    /// The tool timeline, reasoning and usage lines (everything that is not the answer).
    var showExtras: Bool
    /// `[1]` markers in the text and numbered footnotes after it.
    var citations: Bool
    /// Where generated images are saved.
    var imagesDirectory: URL?
    /// Keep the answer's text in the renderer (`TurnOutcome.text`); `ask` does not need it.
    var keepsText = true
    /// Render the answer's Markdown (`console.markdown`, on for a terminal; `ask --render`).
    var markdown = false
    /// Links as OSC 8 hyperlinks, where the terminal is known to take them.
    var hyperlinks = false

    init(
        colors: Bool = false, width: Int? = nil, showReasoning: Bool = true, showUsage: Bool = true,
        showExtras: Bool = false,
        citations: Bool = false, imagesDirectory: URL? = nil
    ) {
        self.colors = colors
        self.width = width
        self.showReasoning = showReasoning
        self.showUsage = showUsage
        self.showExtras = showExtras
        self.citations = citations
        self.imagesDirectory = imagesDirectory
    }

    /// Plain text: what `ask` writes to a pipe.
    static let plain = RenderOptions()

    /// For a terminal on file descriptor `fd` (everything on, colours unless `NO_COLOR`), or plain text
    /// when `fd` is not a terminal.
    static func forTerminal(fd: Int32, environment: AppEnvironment, settings: TurnSettings) -> RenderOptions {
        guard isatty(fd) == 1 else {
            return RenderOptions(
                showReasoning: settings.showReasoning, showUsage: settings.showUsage,
                imagesDirectory: environment.dataDirectory.appendingPathComponent("images"))
        }
        var size = winsize()
        let columns =
            ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0
            ? Int(size.ws_col) : Int(environment["COLUMNS"] ?? "") ?? 80
        var options = RenderOptions(
            colors: environment.variables["NO_COLOR"] == nil && environment["TERM"] != "dumb", width: max(20, columns),
            showReasoning: settings.showReasoning, showUsage: settings.showUsage, showExtras: true, citations: true,
            imagesDirectory: environment.dataDirectory.appendingPathComponent("images"))
        options.markdown = settings.markdown
        options.hyperlinks = options.colors && supportsHyperlinks(environment)
        return options
    }

    /// `ask --render`: Markdown rendered whatever the output is, at the terminal's width (else `COLUMNS`,
    /// else 80), in colour unless `NO_COLOR`.
    static func rendered(fd: Int32, environment: AppEnvironment, settings: TurnSettings) -> RenderOptions {
        var options = forTerminal(fd: fd, environment: environment, settings: settings)
        guard isatty(fd) != 1 else {
            options.markdown = true
            return options
        }
        options.markdown = true
        options.colors = environment.variables["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        options.width = max(20, Int(environment["COLUMNS"] ?? "") ?? 80)
        options.hyperlinks = options.colors && supportsHyperlinks(environment)
        return options
    }

    /// Terminals known to show OSC 8 hyperlinks (`OPENRESPONSES_HYPERLINKS=1|0` decides otherwise). Inside
    /// tmux or screen the outer terminal is unknown, so links are shown with their URL.
    static func supportsHyperlinks(_ environment: AppEnvironment) -> Bool {
        if let forced = environment["OPENRESPONSES_HYPERLINKS"] { return forced == "1" }
        if environment["TMUX"] != nil || environment["TERM"]?.hasPrefix("screen") == true { return false }
        let programs: Set<String> = ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio"]
        if let program = environment["TERM_PROGRAM"], programs.contains(program) { return true }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        if environment["KITTY_WINDOW_ID"] != nil || environment["WT_SESSION"] != nil
            || environment["KONSOLE_VERSION"] != nil
        {
            return true
        }
        return ["xterm-kitty", "foot", "alacritty", "xterm-ghostty", "wezterm"].contains(environment["TERM"] ?? "")
    }
}
