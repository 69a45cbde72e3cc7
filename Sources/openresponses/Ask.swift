import ArgumentParser
import Console
import Foundation
import Workbench

struct Ask: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask", _superCommandName: "openresponses",
        abstract: "Send one prompt and print the answer as it arrives.",
        // One line per paragraph: the help wraps it to the terminal's width.
        discussion: """
            The prompt comes from the arguments, or from stdin when it is piped; with both, the piped text is \
            appended to the prompt as context. Piped input is measured first: an image (PNG, JPEG, GIF, WebP) or a \
            PDF goes as a file beside the prompt; other bytes that are not UTF-8 text are refused, naming their size \
            and kind; text over console.max_input_tokens (default half the model's context window, estimated at 4 \
            bytes a token) is refused with its tokens and cost, unless --allow-large-input. Nothing is sent then.

            -f/--fragment PATH|URL|- adds a document's text as context before the prompt (repeatable): a file read \
            by its type (text and code as they are, HTML as its text, PDF with poppler, DOCX), a URL fetched with a \
            GET that carries no API key (at most 16 MB, 30 s, 5 redirects; read by its Content-Type), or - for stdin \
            (then not piped input). Each goes as its own input_text part, <fragment source="notes.md" \
            sha256="...">...</fragment>, and the same text given twice is sent once. Fragments count toward \
            console.max_input_tokens with piped text, are never read for a preset's {{variables}}, and are kept by \
            hash in the data directory's fragments/; history shows each turn's by source and hash. A fragment that \
            cannot be read (missing, unreadable, HTTP error, over the cap) is an error naming it, exit 2, and \
            nothing is sent.

            With --schema (or --schema-multi, for a list of them) the answer is JSON: the argument is a JSON Schema \
            file, or fields in short, as 'name, age int, bio: one sentence' (types str, int, float, bool; a \
            description after ':'; one field a line when there are several lines). The request's text.format is that \
            schema, strict when every object requires all its properties and sets additionalProperties: false (else a \
            note says why it is not). The answer is not streamed: it is checked against the schema and printed as \
            indented JSON; an answer that is not JSON or breaks the schema is an error naming the JSON path that \
            failed (error: the answer does not match the schema: $.age: expected integer, got string "forty").

            Exit status: 0 completed, 1 API or network error, 2 bad usage or input, 3 incomplete, 4 the answer does \
            not match --schema, 130 interrupted.
            """)

    @OptionGroup var session: SessionFlags

    @Flag(name: .long, help: "Print the final response object as JSON instead of its text.")
    var json = false

    @Flag(name: .long, help: "Print the exact request body that would be sent, and send nothing.")
    var dryRun = false

    @Flag(
        name: .long,
        help: "Count the request's input tokens (POST /responses/input_tokens) and estimate their cost; create nothing."
    )
    var estimate = false

    @Flag(
        name: .shortAndLong,
        help: "Run function handlers and allow MCP calls without asking (needed when stdin is not a terminal).")
    var yes = false

    @Flag(
        name: .long,
        help:
            "Create the response in the background (as --set background=true): Ctrl-C then detaches, and `openresponses attach ID` follows it."
    )
    var background = false

    @Flag(
        name: .long,
        help:
            "With --background (implied): print the response's id as soon as the server has accepted it, and exit; `openresponses jobs wait ID` prints its answer later."
    )
    var detach = false

    @Flag(
        name: .long,
        help:
            "Send piped text and fragments over console.max_input_tokens (estimated; default half the model's context window) all the same."
    )
    var allowLargeInput = false

    @Flag(
        name: .long,
        help:
            "Render the answer's Markdown (headings, lists, tables, highlighted code) even when stdout is not a terminal; NO_COLOR keeps the layout without colour."
    )
    var render = false

    @Option(
        name: .customLong("mcp"),
        help: ArgumentHelp(
            "Turn on a local MCP server declared under mcp_servers: (config.yaml or the preset); repeatable.",
            valueName: "name"))
    var mcpServers: [String] = []

    @Option(
        name: [.customShort("f"), .customLong("fragment")],
        help: ArgumentHelp(
            "A file, URL or - (stdin) whose text goes before the prompt as context, each text once; repeatable.",
            valueName: "path-or-url"))
    var fragments: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Ask for JSON that matches a schema: a JSON Schema file, or fields as 'name, age int, bio: one sentence'.",
            valueName: "file-or-fields"))
    var schema: String?

    @Option(
        name: .customLong("schema-multi"),
        help: ArgumentHelp(
            "As --schema, for a list of them: the answer is {\"items\": [...]}.", valueName: "file-or-fields"))
    var schemaMulti: String?

    @Argument(help: "The prompt.")
    var prompt: [String] = []

    func validate() throws {
        if schema != nil, schemaMulti != nil {
            throw ValidationError("--schema and --schema-multi cannot be used together: give one.")
        }
    }

    func run() throws {
        let environment = try session.environment()
        let stdinIsTerminal = environment.terminal.standardInput
        let flags = session.options
        var options = AskOptions(
            prompt: prompt.isEmpty ? nil : prompt.joined(separator: " "), stdinText: nil, model: flags.model,
            preset: flags.preset, instructions: flags.instructions, stream: flags.stream ?? true, printJSON: json,
            assignments: flags.assignments + (background || detach ? ["background=true"] : []), dryRun: dryRun,
            approveAll: yes,
            canAsk: stdinIsTerminal)
        options.stdin = stdinIsTerminal ? nil : StandardInput.readAll().map(PipedBytes.init)
        options.fragments = fragments
        options.allowLargeInput = allowLargeInput
        options.detach = detach
        options.variables = flags.variables
        options.estimate = estimate
        options.render = render
        options.mcp = mcpServers
        options.schema = (schema ?? schemaMulti).map { AskOptions.Schema(argument: $0, multiple: schemaMulti != nil) }
        let request = options
        try withContext(environment: environment) { context in await AskRunner(context: context).run(request) }
    }
}

enum StandardInput {
    /// Everything on stdin until EOF, as bytes (sized up front when stdin is a regular file); nil when
    /// stdin is closed or unreadable before anything was read.
    static func readAll() -> Data? {
        var status = stat()
        let known = fstat(0, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
        var bytes = Data(capacity: max(known + 1, 65536))
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = read(0, &buffer, buffer.count)
            if count > 0 {
                bytes.append(buffer, count: count)
            } else if count == 0 {
                break
            } else if errno == EINTR {
                continue
            } else {
                return bytes.isEmpty ? nil : bytes
            }
        }
        return bytes
    }
}
