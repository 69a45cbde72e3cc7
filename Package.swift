// swift-tools-version: 6.1
import PackageDescription

// The executable's symbols are not exported: the static Swift standard library's link arguments ask for
// `-export-dynamic`, which put 48,000 symbols in the dynamic table, and the loader and the runtime's start-up
// `dladdr` walked them in every process (about 2 ms of each command's start-up; Docs/performance.md). Nothing
// looks the executable's symbols up by name.
//
// `-lcurl`, which Foundation's URL loading asks for (the MCP SDK brings it), finds an empty archive of ours
// (Sources/CCurlShim/lib/libcurl.a) where the system has no libcurl to link: CCurlShim defines the functions and
// opens libcurl only if one is called, so no command loads libcurl and its 29 libraries at start (about 5 ms of
// each, Docs/performance.md).
let executableLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-Xlinker", "--no-export-dynamic", "-L", Context.packageDirectory + "/Sources/CCurlShim/lib"],
        .when(platforms: [.linux]))
]

let package = Package(
    name: "OpenResponses",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "openresponses", targets: ["openresponses"]),
        .library(name: "ResponsesAPI", targets: ["ResponsesAPI"]),
    ],
    // The team inspector on PostgreSQL (Docs/team.md) is built only when asked for (`scripts/install.sh --team`,
    // and the tests): PostgresNIO brings swift-crypto's BoringSSL, ServiceLifecycle and Metrics, minutes of a
    // first build that a single user's console does not need (issue 51).
    traits: [
        .trait(name: "TeamInspector", description: "The inspector's PostgreSQL engine (inspector.url: postgres://…)")
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // readline through the system library (libreadline-dev on Debian; Homebrew readline on macOS).
        .systemLibrary(
            name: "CReadline",
            providers: [.apt(["libreadline-dev"]), .brew(["readline"])]
        ),
        // Sentence embeddings computed here: safetensors, WordPiece and all-MiniLM-L6-v2's encoder.
        // Optimised in debug builds too: the tests embed real text, and unoptimised the encoder's loops are 40
        // times slower (157 passages took 332 s instead of 8).
        .target(
            name: "Embeddings", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Untrusted bytes made safe where they leave: a terminal (TerminalText), HTML, a shell word, an FTS5
        // query, a file name (Docs/security.md). No dependencies, so every module can use it.
        .target(name: "Untrusted"),
        // SHA-256, what library files and fragments are named by (swift-crypto's only use was this, and it built a
        // second BoringSSL into the first build: issue 51). Optimised in debug builds too: the tests hash files.
        .target(name: "Digest", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The answer's Markdown rendered for a terminal: a streaming state machine over UTF-8 bytes, tables,
        // highlighted code, hyperlinks. Foundation only, so its tests and benchmark build without the console.
        .target(name: "Markdown"),
        // libcurl's functions defined in the executable and resolved with dlopen on first use: the MCP SDK brings
        // Foundation's URL loading, whose static build would otherwise make every command load libcurl and the
        // 29 libraries it needs (Docs/performance.md). Nothing here calls them.
        .target(
            name: "CCurlShim", exclude: ["lib"], linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Signal handling and terminal-mode save/restore: async-signal-safe code must be C.
        .target(name: "CTerminal"),
        // ChildProcess, the one way a program is started (handlers, the library's tools, the editor, the tests):
        // pipes close-on-exec, a process group of its own, a deadline, cancellation, EINTR, reaping.
        .target(name: "Spawning", dependencies: ["ResponsesAPI", "CTerminal"]),
        // sqlite3_db_config is variadic: a one-line C wrapper lets the inspector call it.
        .target(name: "CSQLiteSupport", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "ResponsesAPI",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Opening a SQLite store safely when processes race and files are damaged (inspector, library).
        .target(
            name: "StoreSupport",
            dependencies: ["CSQLiteSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "Inspector",
            dependencies: [
                "ResponsesAPI", "CSQLiteSupport", "StoreSupport", "Untrusted",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/prices.json")]
        ),
        // The inspector's second engine, PostgreSQL, for a team (Docs/team.md): what local stores push, read by
        // every `inspect` command. Empty unless the TeamInspector trait is enabled.
        .target(
            name: "TeamStore",
            dependencies: [
                "Inspector", "ResponsesAPI", "Untrusted",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["TeamInspector"])),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The local document library: extraction, chunking, the store, search, answers. No terminal.
        .target(
            name: "Library",
            dependencies: [
                "ResponsesAPI", "StoreSupport", "CSQLiteSupport", "Spawning", "Embeddings", "Untrusted",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                "Digest",
            ]
        ),
        // The recording proxy: any OpenAI client's traffic forwarded upstream and handed to an
        // ExchangeObserver (the inspector). Its server side is Hummingbird's; upstream is AsyncHTTPClient.
        .target(
            name: "Proxy",
            dependencies: [
                "ResponsesAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Sessions, presets, settings and providers: what a turn is, composed and run without a terminal.
        // It uses the library for turns that carry passages (`LibraryAugmenter`).
        .target(
            name: "Workbench",
            dependencies: [
                "ResponsesAPI", "Spawning", "Library", .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The terminal front end: the runners each command runs, the console (REPL) and the rendering. It
        // declares no command line: the executable's definitions hand it typed values (Docs/DESIGN.md).
        // Local MCP servers as the session's tools (Docs/mcp.md): the official SDK's client over a transport of
        // this console's (ChildProcessTransport: a started server's pipes, capped, its end an error).
        .target(
            name: "MCPClient",
            dependencies: [
                "ResponsesAPI", "Spawning", "Workbench", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The library and (read-only) the inspector served over MCP to any agent (`mcp serve`): the SDK's Server,
        // the tools over the same services the console uses.
        .target(
            name: "MCPServe",
            dependencies: [
                "ResponsesAPI", "Library", "Inspector", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Console",
            dependencies: [
                "ResponsesAPI", "Inspector", "StoreSupport", "Library", "Workbench", "Proxy", "CReadline", "CTerminal",
                "Spawning", "MCPClient", "MCPServe",
                "Untrusted", "Markdown", "TeamStore",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Every command definition (ArgumentParser), by area, and what `/files` and `/stores` parse in the console.
        .executableTarget(
            name: "openresponses",
            dependencies: [
                "Console", "ResponsesAPI", "Inspector", "Library", "Workbench", "CTerminal", "Untrusted", "CCurlShim",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: executableLinking,
            plugins: ["GitRevision"]
        ),
        // The git revision `--version` prints, written before each build.
        .plugin(name: "GitRevision", capability: .buildTool(), path: "Plugins/GitRevision"),
        // Benchmarks (run by Benchmarks/*.sh in release mode; never by the tests).
        .executableTarget(
            name: "openresponses-decode-bench",
            dependencies: ["ResponsesAPI"],
            path: "Benchmarks/DecodeBenchmark"
        ),
        .executableTarget(
            name: "openresponses-inspector-bench",
            dependencies: ["ResponsesAPI", "Inspector", "TestSupport"],
            path: "Benchmarks/InspectorBenchmark"
        ),
        .executableTarget(
            name: "openresponses-library-bench",
            dependencies: ["Library", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Benchmarks/LibraryBenchmark"
        ),
        .executableTarget(
            name: "openresponses-embedding-bench",
            dependencies: ["Embeddings"],
            path: "Benchmarks/EmbeddingBenchmark"
        ),
        .executableTarget(
            name: "openresponses-retrieval-bench",
            dependencies: ["Library", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/RetrievalBenchmark"
        ),
        .executableTarget(
            name: "openresponses-verify-bench",
            dependencies: ["Library", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/VerifyBenchmark"
        ),
        .executableTarget(
            name: "openresponses-ranking-bench",
            dependencies: ["Library", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/RankingBenchmark"
        ),
        .executableTarget(
            name: "openresponses-markdown-bench",
            dependencies: ["Markdown"],
            path: "Benchmarks/MarkdownBenchmark"
        ),
        .executableTarget(
            name: "openresponses-loopback",
            dependencies: ["TestSupport", "ResponsesAPI"],
            path: "Benchmarks/LoopbackServe"
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "Spawning", "ResponsesAPI",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MarkdownTests",
            dependencies: ["Markdown", "TestSupport"]
        ),
        .testTarget(
            name: "SpawningTests",
            dependencies: ["Spawning", "ResponsesAPI"]
        ),
        .testTarget(
            name: "UntrustedTests",
            dependencies: ["Untrusted", "TestSupport"]
        ),
        .testTarget(
            name: "ResponsesAPITests",
            dependencies: ["ResponsesAPI", "TestSupport"]
        ),
        .testTarget(
            name: "InspectorTests",
            dependencies: ["Inspector", "StoreSupport", "CSQLiteSupport", "ResponsesAPI", "TestSupport"]
        ),
        .testTarget(
            name: "WorkbenchTests",
            dependencies: ["Workbench", "Library", "ResponsesAPI", "TestSupport"]
        ),
        .testTarget(
            name: "LibraryTests",
            dependencies: [
                "Library", "Digest", "Embeddings", "StoreSupport", "ResponsesAPI", "TestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ProxyTests",
            dependencies: [
                "Proxy", "Inspector", "ResponsesAPI", "TestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Tests by kind (Docs/testing.md). The targets above and ConsoleTests are unit tests: each module in the
        // test process, with the loopback server and real files; none runs the built binary or tmux, and only
        // ProxyTests' Python SDK in front of the peer needs the peer (it skips without it). The three below
        // drive the built `openresponses` (found by `Subprocess.openresponsesBinary` beside the test bundle):
        // on its own, in a real terminal (tmux), against the peer server.
        // Against a real PostgreSQL 15 cluster that scripts/postgres.sh starts (with the TeamInspector trait).
        .testTarget(
            name: "TeamStoreTests",
            dependencies: ["TeamStore", "Inspector", "ResponsesAPI", "TestSupport"]
        ),
        .testTarget(
            name: "ConsoleTests",
            dependencies: ["Console", "Workbench", "Inspector", "ResponsesAPI", "TestSupport", "openresponses"]
        ),
        // Commands as a user runs them: the binary against the loopback server, its exit status and output.
        .testTarget(
            name: "BinaryTests",
            dependencies: ["Workbench", "Inspector", "ResponsesAPI", "TestSupport", "Spawning", "openresponses"]
        ),
        // The console and commands in a real terminal (tmux): what a person typing sees.
        .testTarget(
            name: "TerminalTests",
            dependencies: ["Inspector", "ResponsesAPI", "TestSupport", "openresponses"]
        ),
        // Against the peer server (llama-stack with an echo model); skipped when it is not found.
        .testTarget(
            name: "PeerTests",
            dependencies: ["ResponsesAPI", "TestSupport", "openresponses"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
