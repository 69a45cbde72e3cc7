import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Named providers: two loopback servers configured as two providers, each reached with its own key and
/// headers and neither key stored; a credentials file others can read is refused; no error quotes a key.
/// `providers check` against the peer is in PeerTests.
@Suite("named providers")
struct ProvidersTests {
    let home = TestHome("prov")

    /// Writes a file in the home, only its owner able to read it unless `mode` says otherwise.
    func write(_ name: String, _ text: String, mode: Int = 0o600) throws {
        try home.write(name, text, mode: mode)
    }

    @Test func eachProviderGetsItsOwnKeyAndHeadersAndNoKeyIsStored() async throws {
        defer { home.remove() }
        let answer: @Sendable (String) -> LoopbackServer.Route = { name in
            { _ in .sse(Fixtures.textStream(id: "resp_\(name)", text: "from \(name)", previousResponseID: nil)) }
        }
        try await LoopbackServer.withTwo(answer("A"), answer("B")) { first, second in
            try write(
                "config.yaml",
                """
                version: 1
                providers:
                  alpha:
                    base_url: \(first.baseURL)
                    key_env: ALPHA_KEY
                    model: alpha-model
                  beta:
                    base_url: \(second.baseURL)
                    model: beta-model
                    headers:
                      X-Team: "${TEAM}"
                """)
            try write("credentials.yaml", "beta: sk-beta-secret-0000\n")
            let environment = ["ALPHA_KEY": "sk-alpha-secret-0000", "TEAM": "core"]
            let a = try await home.run(["ask", "--provider", "alpha", "hello"], environment: environment)
            #expect(a.status == 0, "\(a.stderr)")
            #expect(a.stdout.contains("from A"))
            let b = try await home.run(["ask", "--provider", "beta", "hello"], environment: environment)
            #expect(b.stdout.contains("from B"), "\(b.stderr)")
            #expect(
                !(a.stderr + b.stderr).contains("secret-0000"), "no key in what the command says (its log included)")
            let toA = try #require(first.requests.last)
            let toB = try #require(second.requests.last)
            #expect(toA.header("authorization") == "Bearer sk-alpha-secret-0000")
            #expect(toB.header("authorization") == "Bearer sk-beta-secret-0000")
            #expect(toB.header("x-team") == "core")
            #expect(toA.jsonBody?["model"] as? String == "alpha-model", "the provider's model is the default")
            #expect(toB.jsonBody?["model"] as? String == "beta-model")
            // The inspector has both exchanges, and neither key.
            let list = try await home.run(["inspect", "list", "--json"])
            #expect(list.stdout.contains(first.baseURL) && list.stdout.contains(second.baseURL))
            for file in try FileManager.default.contentsOfDirectory(atPath: home.path)
            where file.hasPrefix("inspector.sqlite") {
                let bytes = try Data(contentsOf: home.appendingPathComponent(file))
                #expect(bytes.range(of: Data("secret-0000".utf8)) == nil, "\(file) holds a key")
            }
            // Each exchange names its provider; list filters on it, and a replay to the other provider can be diffed.
            let onBeta =
                try JSONValue.parse(
                    Array(try await home.run(["inspect", "list", "--json", "--provider", "beta"]).stdout.utf8)
                )
                .arrayValue ?? []
            #expect(onBeta.count == 1)
            #expect(onBeta.first?["provider"] == "beta")
            let onAlpha =
                try JSONValue.parse(
                    Array(try await home.run(["inspect", "list", "--json", "--provider", "alpha"]).stdout.utf8)
                )
                .arrayValue ?? []
            let alphaID = try #require(onAlpha.first?["id"]?.intValue)
            let replay = try await home.run(
                ["inspect", "replay", String(alphaID), "--provider", "beta"], environment: environment)
            #expect(replay.status == 0, "\(replay.stderr)")
            #expect(replay.stdout.contains("from B"))
            #expect(second.requests.last?.header("authorization") == "Bearer sk-beta-secret-0000")
            let replays =
                try JSONValue.parse(
                    Array(try await home.run(["inspect", "list", "--json", "--provider", "beta"]).stdout.utf8)
                )
                .arrayValue ?? []
            let ids = replays.compactMap { $0["id"]?.intValue }
            let replayID = try #require(ids.max())
            let diff = try await home.run(["inspect", "diff", String(alphaID), String(replayID)])
            #expect(diff.status == 0, "\(diff.stderr)")
            #expect(diff.stdout.contains("from A") && diff.stdout.contains("from B"), "\(diff.stdout)")
            // Without --provider, a replay goes where the exchange went, with that provider's key and headers,
            // not with the command's own key.
            let again = try await home.run(
                ["inspect", "replay", String(alphaID)],
                environment: environment.merging(["OPENAI_API_KEY": "sk-default-secret-0000"]) { $1 })
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("from A"))
            #expect(
                again.stderr.contains("went to provider alpha; replaying it there, with its key"), "\(again.stderr)")
            #expect(first.requests.last?.header("authorization") == "Bearer sk-alpha-secret-0000")
            let stats = try await home.run(["inspect", "stats", "--by", "provider", "--json"])
            #expect(stats.stdout.contains("\"alpha\"") && stats.stdout.contains("\"beta\""), "\(stats.stdout)")

            let listed = try await home.run(["providers", "list"], environment: environment)
            #expect(listed.stdout.contains("alpha  \(first.baseURL)  (key from $ALPHA_KEY, model alpha-model)"))
            #expect(!listed.stdout.contains("secret"))
            let unknown = try await home.run(["ask", "--provider", "gamma", "hello"], environment: environment)
            #expect(unknown.status == 2)
            #expect(unknown.stderr.contains("no provider gamma (known: default, alpha, beta"))
        }
    }

    @Test func libraryCommandsTakeAProvider() async throws {
        defer { home.remove() }
        let server = try await LoopbackServer.start { request in
            let inputs =
                (request.jsonBody?["input"] as? [String]) ?? [String(describing: request.jsonBody?["input"] ?? "")]
            let data = inputs.enumerated().map {
                #"{"object":"embedding","index":\#($0.offset),"embedding":[1,0,\#($0.offset)]}"#
            }
            return .json(#"{"object":"list","data":[\#(data.joined(separator: ","))]}"#)
        }
        defer { Task { await server.stop() } }
        try write(
            "config.yaml", "version: 1\nproviders:\n  emb:\n    base_url: \(server.baseURL)\n    key_env: EMB_KEY\n")
        let folder = home.appendingPathComponent("notes", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "Harbour pilots board ships at the breakwater.".write(
            to: folder.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        let environment = ["EMB_KEY": "sk-emb-secret-0000", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"]
        let add = try await home.run(
            ["library", "add", folder.path, "--embedder", "openai:tiny", "--provider", "emb"], environment: environment)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("Embedded 1 passage with openai:tiny"))
        #expect(server.requests.first?.header("authorization") == "Bearer sk-emb-secret-0000")
        let search = try await home.run(
            ["library", "search", "pilots", "--mode", "semantic", "--json", "--provider", "emb"],
            environment: environment)
        #expect(search.status == 0, "\(search.stderr)")
        #expect(
            search.stdout.contains("\"semantic_rank\" : 1") || search.stdout.contains("\"semantic_rank\": 1"),
            "\(search.stdout)")
        let rows =
            try JSONValue.parse(
                Array(try await home.run(["inspect", "list", "--json", "--provider", "emb"]).stdout.utf8)
            )
            .arrayValue ?? []
        #expect(rows.count == 2, "the passage's and the query's embeddings, both recorded as emb's")
        // The embedder can name its provider itself: no --provider needed afterwards, for the query either.
        let reembed = try await home.run(
            ["library", "reembed", "--embedder", "openai:tiny@emb"], environment: environment)
        #expect(
            reembed.stdout.contains("The library's vectors come from openai:tiny@emb: 1 passage"),
            "\(reembed.stdout)\(reembed.stderr)")
        let later = try await home.run(
            ["library", "search", "pilots", "--mode", "semantic", "--json"], environment: environment)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout.contains("a.txt"))
        #expect(server.requests.count == 4)
        #expect(server.requests.allSatisfy { $0.header("authorization") == "Bearer sk-emb-secret-0000" })
    }

    @Test func aCredentialsFileOthersCanReadIsRefused() async throws {
        defer { home.remove() }
        try write("config.yaml", "version: 1\nproviders:\n  beta:\n    base_url: http://127.0.0.1:9/v1\n")
        try write("credentials.yaml", "beta: sk-beta-secret-0000\n", mode: 0o644)
        let ask = try await home.run(["ask", "--provider", "beta", "hello"])
        #expect(ask.status == 2)
        #expect(ask.stderr.contains("credentials.yaml has mode 644 and holds keys: chmod 600"))
        try write(
            "config.yaml",
            "version: 1\nproviders:\n  beta:\n    base_url: ftp://x\n    headers:\n      X-Key: literal-secret\n")
        let bad = try await home.run(["providers", "list"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("providers.beta.base_url"), "\(bad.stderr)")
        #expect(bad.stderr.contains("providers.beta.headers.X-Key"), "\(bad.stderr)")

        // A link to a 0600 file is read; a directory, another user's file, bad names and headers are refused.
        try write("config.yaml", "version: 1\nproviders:\n  beta:\n    base_url: http://127.0.0.1:9/v1\n")
        try write("real.yaml", "beta: sk-beta-secret-0000\n")
        try FileManager.default.removeItem(at: home.appendingPathComponent("credentials.yaml"))
        try FileManager.default.createSymbolicLink(
            atPath: home.appendingPathComponent("credentials.yaml").path, withDestinationPath: "real.yaml")
        let linked = try await home.run(["providers", "list"])
        #expect(linked.status == 0 && linked.stdout.contains("beta"), "\(linked.stderr)")
        let viaLink = try await home.run(["ask", "--provider", "beta", "--model", "m", "hello"])
        #expect(!viaLink.stderr.contains("mode"), "\(viaLink.stderr)")
        if geteuid() == 0 {
            chown(home.appendingPathComponent("real.yaml").path, 65534, 65534)
            let foreign = try await home.run(["ask", "--provider", "beta", "hello"])
            #expect(
                foreign.status == 2 && foreign.stderr.contains("is owned by user 65534, not by you"),
                "\(foreign.stderr)")
        }
        try FileManager.default.removeItem(at: home.appendingPathComponent("credentials.yaml"))
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("credentials.yaml"), withIntermediateDirectories: false)
        let directory = try await home.run(["ask", "--provider", "beta", "hello"])
        #expect(
            directory.status == 2 && directory.stderr.contains("credentials.yaml is not a file"), "\(directory.stderr)")
        for (config, expected) in [
            ("  default:\n    base_url: http://x/v1\n", "providers.default: default is the environment's provider"),
            ("  \"a.b\":\n    base_url: http://x/v1\n", "providers.a.b: a provider's name is letters, digits, - and _"),
            (
                "  ok:\n    base_url: http://x/v1\n    headers:\n      \"X Bad\": \"${T}\"\n",
                "providers.ok.headers.X Bad: not a header name"
            ),
            (
                "  ok:\n    base_url: http://x/v1\n    headers:\n      Authorization: \"${T}\"\n",
                "the key is sent as Authorization already"
            ),
        ] {
            try write("config.yaml", "version: 1\nproviders:\n" + config)
            let refused = try await home.run(["providers", "list"])
            #expect(refused.status == 2 && refused.stderr.contains(expected), "\(refused.stderr)")
        }
    }

    /// A key or header that cannot be sent, and a credentials file that is not YAML, are reported by where
    /// and what, never by quoting them.
    @Test func noErrorQuotesAKey() async throws {
        defer { home.remove() }
        let server = try await LoopbackServer.start { _ in .sse(Fixtures.textStream(id: "resp_k", text: "from K")) }
        defer { Task { await server.stop() } }
        try write(
            "config.yaml",
            """
            version: 1
            providers:
              kappa:
                base_url: \(server.baseURL)
                key_env: KAPPA_KEY
              lambda:
                base_url: \(server.baseURL)
                headers:
                  X-Secret: "${SECRET_HEADER}"
            """)
        try write("credentials.yaml", "lambda: sk-canary-lambda-0001\n  kappa: sk-canary-kappa-0002: x\n")
        let yaml = try await home.run(["ask", "--provider", "lambda", "hi"])
        #expect(yaml.status == 2)
        #expect(yaml.stderr.contains("credentials.yaml:2:"), "\(yaml.stderr)")
        #expect(!yaml.stderr.contains("canary"), "\(yaml.stderr)")
        let check = try await home.run(["providers", "check", "lambda", "--json"])
        #expect(!(check.stdout + check.stderr).contains("canary"), "\(check.stdout)")

        let key = try await home.run(
            ["ask", "--provider", "kappa", "hi"], environment: ["KAPPA_KEY": "sk-canary-kappa-0003\nsecond"])
        #expect(key.status == 2)
        #expect(key.stderr.contains("the API key holds a line break"), "\(key.stderr)")
        #expect(!key.stderr.contains("canary"))

        try write("credentials.yaml", "lambda: sk-canary-lambda-0004\n")
        let header = try await home.run(
            ["ask", "--provider", "lambda", "hi"], environment: ["SECRET_HEADER": "canary-value\r\nX-Injected: 1"])
        #expect(header.status != 0)
        #expect(header.stderr.contains("a request header's value holds a line break"), "\(header.stderr)")
        #expect(!header.stderr.contains("canary"), "\(header.stderr)")
        #expect(server.requests.isEmpty, "nothing was sent")
        for file in try FileManager.default.contentsOfDirectory(atPath: home.path)
        where file.hasPrefix("inspector.sqlite") {
            #expect(
                try Data(contentsOf: home.appendingPathComponent(file)).range(of: Data("canary".utf8)) == nil, "\(file)"
            )
        }
    }
}
