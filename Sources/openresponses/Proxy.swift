import ArgumentParser
import CTerminal
import Console
import Foundation

struct ProxyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract:
            "Record any OpenAI client's traffic: forward /v1/... to the server and keep every exchange in the inspector.",
        discussion: """
            Point a program (an official SDK, an agent, curl) at http://127.0.0.1:8787/v1 instead of the API; \
            requests and answers pass byte for byte, streams as they arrive, and each exchange is recorded as the \
            console records its own (inspect list --source proxy, inspect watch). The client's key is forwarded \
            and never stored.

            Only programs on this machine are served: a request that carries an Origin (a web page) or whose \
            Host is not the listening address (a DNS-rebinding page) is refused with 403, a path that leaves /v1 \
            (/v1/../x, %2e%2e included) with 400, and each refusal is recorded. A connection idle for 60 s is \
            closed.

            A team's gateway: --tokens-file gives each user a token of its own (NAME: TOKEN, budget=USD for a \
            daily budget; --budget-per-user for the rest). Each exchange records its user (inspect list --user, \
            inspect stats --by user); a user who has spent its budget since midnight UTC gets 429 before anything \
            is forwarded. --health answers GET /health for a load balancer.
            """)

    @Option(name: .long, help: "Where to listen: HOST:PORT, :PORT or PORT. Beyond loopback, --token is required.")
    var listen = "127.0.0.1:8787"
    @Option(name: .long, help: "The server to forward to, ending in /v1 (default: the configured base URL).")
    var upstream: String?
    @Option(
        name: .long,
        help: "Clients must send this as their key; the proxy sends OPENAI_API_KEY upstream (needs --key-from-env).")
    var token: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the token from this file instead (mode 0600 or stricter; unlike --token, not in the process list).",
            valueName: "path"))
    var tokenFile: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A team's users instead of one token: lines NAME: TOKEN [budget=USD] (mode 0600 or stricter; each exchange records its user; needs --key-from-env).",
            valueName: "file"))
    var tokensFile: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The daily budget (US dollars, per UTC day) of each --tokens-file user whose line gives none; over it, 429.",
            valueName: "usd"))
    var budgetPerUser: Double?
    @Flag(name: .long, help: "Answer GET /health with 200 {\"status\":\"ok\"}, without a token (for a load balancer).")
    var health = false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most connections open to the upstream at once (each open stream holds one); past it a request waits for a free one, up to the connect timeout (then 502).",
            valueName: "n"))
    var upstreamConnections = 256
    @Flag(
        name: .long,
        help: "Send OPENAI_API_KEY upstream instead of the client's key (needs --token, --token-file or --tokens-file)."
    )
    var keyFromEnv = false
    @OptionGroup var server: ProviderOptions<UpstreamServer>

    func run() throws {
        Self.keepMemoryFlat()
        let options = ProxyRunner.Options(
            listen: listen, upstream: upstream, token: token, tokenFile: tokenFile, keyFromEnvironment: keyFromEnv,
            tokensFile: tokensFile, budgetPerUser: budgetPerUser, health: health,
            upstreamConnections: upstreamConnections)
        try withContext(environment: server.environment) { context in
            await ProxyRunner(context: context).run(options)
        }
    }
}

extension ProxyCommand {
    /// The proxy is a server whose memory must stay flat whatever streams pass (issue 20: under 64 MB): one
    /// malloc arena for its threads, and blocks of 256 KB or more (a batch of recorded events, a final event's
    /// kept bytes) mapped on their own and returned when freed, instead of glibc's default of an arena per
    /// thread with a threshold that rises after the first large free, which kept 10-15 MB more after a 50 MB
    /// stream (`Benchmarks/proxy.sh`; throughput unchanged within the noise).
    static func keepMemoryFlat() {
        or_keep_memory_flat(256 * 1024)
    }
}
