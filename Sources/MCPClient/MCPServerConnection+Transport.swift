import Foundation
import MCP
import Spawning
import Workbench

/// Reaching the server: its program started here (`ChildProcessTransport`), or its URL
/// (`StreamableHTTPTransport`).
extension MCPServerConnection {
    func makeTransport() throws(MCPServerError) -> (any Transport, @Sendable () -> MCPServerError?) {
        switch config.endpoint {
        case .stdio(let command, let environment, let directory):
            let program = try Self.resolve(command[0], server: config.name, environment: baseEnvironment)
            var arguments = Array(command.dropFirst())
            var executable = program
            if let directory {
                // posix_spawn has no working directory before glibc 2.29's addchdir: the program is started by
                // /bin/sh, which changes to it first (the words passed as arguments, never parsed by the shell).
                arguments = ["-c", "cd -- \"$0\" && exec \"$@\"", directory, program] + arguments
                executable = "/bin/sh"
            }
            var whole = baseEnvironment
            for (key, value) in environment { whole[key] = value }
            let child: RunningChild
            do {
                child = try RunningChild(ChildProcess(executable, arguments, environment: whole))
            } catch {
                throw MCPServerError(
                    .start, server: config.name,
                    "the MCP server \(config.name) (\(program)) cannot start: \(error.detail)")
            }
            let transport = ChildProcessTransport(child: child, server: config.name, logger: logger)
            return (transport, { transport.closure })
        case .http(let url, let headers):
            guard let endpoint = URL(string: url), endpoint.scheme == "http" || endpoint.scheme == "https" else {
                throw MCPServerError(
                    .configuration, server: config.name,
                    "\(config.origin): mcp_servers.\(config.name).url: '\(url)' is not an http(s) URL")
            }
            var values: [(String, String)] = []
            for (name, template) in headers {
                values.append((name, try expand(template, header: name)))
            }
            let transport = StreamableHTTPTransport(
                url: endpoint.absoluteString, headers: values, server: config.name, timeout: config.timeout,
                logger: logger)
            return (transport, { transport.closure })
        }
    }

    /// `program` as a path: as written when it has a '/', else the first executable of that name on PATH.
    static func resolve(_ program: String, server: String, environment: [String: String]) throws(MCPServerError)
        -> String
    {
        if program.contains("/") { return program }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw MCPServerError(.start, server: server, "the MCP server \(server): '\(program)' is not a program on PATH")
    }

    /// A header's `${NAME}` references replaced by the user's environment's values.
    private func expand(_ template: String, header: String) throws(MCPServerError) -> String {
        let path = "\(config.origin): mcp_servers.\(config.name).headers.\(header)"
        // The console's own keys never go to an MCP server: its URL is the user's to write, not a provider's.
        let environment = AppEnvironment(variables: variables)
        let providers = (try? ProviderCatalog.load(environment: environment))?.providers ?? []
        let keys = Set(["OPENAI_API_KEY"] + providers.compactMap(\.keyEnv))
        if let name = EnvironmentTemplate.variables(in: template).first(where: keys.contains) {
            throw MCPServerError(
                .configuration, server: config.name,
                "\(path): ${\(name)} holds a provider's key, which is not sent to MCP servers")
        }
        do {
            return try EnvironmentTemplate.expand(
                template, environment: environment, keyPath: path)
        } catch {
            throw MCPServerError(.configuration, server: config.name, error.message)
        }
    }
}
