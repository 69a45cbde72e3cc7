import ArgumentParser
import Console
import Foundation
import Inspector
import Workbench

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract:
            "Look at the recorded HTTP exchanges: list, watch, show, dump, diff, replay, stats, cache, prune, export, report.",
        subcommands: [
            List.self, Watch.self, Show.self, Dump.self, Diff.self, Replay.self, Stats.self, Cache.self, Prune.self,
            Export.self,
            Report.self, Push.self,
        ])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List exchanges, newest first.")

        @OptionGroup var store: StoreOptions

        @Option(
            name: .long,
            help: "Only exchanges started at or after this time (2026-11-21, 2026-11-21T14:00:00Z, or 2h / 3d ago).")
        var since: String?
        @Option(name: .long, help: "Only this model (a family name matches its dated snapshots).")
        var model: String?
        @Option(
            name: .long, help: "Only this state (completed, failed, cancelled, incomplete, interrupted) or HTTP status."
        )
        var status: String?
        @Option(name: .long, help: "Only exchanges made with this preset.")
        var preset: String?

        @Option(name: .customLong("eval"), help: ArgumentHelp("Only the calls of this `eval` run.", valueName: "run"))
        var evalRun: String?
        @Option(
            name: .customLong("batch"),
            help: ArgumentHelp("Only the results of this Batch API batch (batch submit).", valueName: "id"))
        var batchID: String?
        @Option(name: .long, help: "Only exchanges sent to this provider (default, or a name from config.yaml).")
        var provider: String?
        @Option(
            name: .long,
            help:
                "Only the console's own exchanges (console), those recorded by openresponses proxy (proxy), or batch results (batch)."
        )
        var source: Source?
        @Option(name: .long, help: "Only exchanges from a client whose User-Agent or SDK headers contain this (proxy).")
        var client: String?
        @Option(name: .long, help: "Only exchanges sent with this user's token (proxy --tokens-file).")
        var user: String?
        @Option(name: .long, help: "Only exchanges whose input, output or event texts contain all these words.")
        var search: String?
        @Option(
            name: .long,
            help: "Only the exchanges of this response: the request that created it, its resumed streams, retrievals.")
        var response: String?
        @Option(name: .long, help: "How many to list.")
        var limit = 50
        @OptionGroup var printing: OutputOptions

        enum Source: String, ExpressibleByArgument, CaseIterable { case console, proxy, batch }

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1 (got \(limit))") }
        }

        func run() throws {
            var query = ExchangeQuery(
                since: try since.map { try time($0, flag: "--since") }, model: model, status: status, preset: preset,
                search: search, limit: limit, provider: provider, source: source?.rawValue, client: client,
                responseID: response)
            query.evalRun = evalRun
            query.batchID = batchID
            query.user = user
            let chosen = query
            try inspect(store: store) { await $0.list(chosen, json: printing.json) }
        }
    }

    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print each exchange (the console's or the proxy's) as it starts and ends, until Ctrl-C.")
        @Option(name: .long, help: "How many recent exchanges to print first.")
        var last = 10

        @OptionGroup var store: StoreOptions

        func run() throws {
            let backlog = last
            try inspect(store: store) { await $0.watch(backlog: backlog) }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one exchange: summary, headers, bodies, events (all unless parts are named).")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The exchange id (from inspect list).")
        var id: Int64
        @Flag(name: .long, help: "The request body.")
        var request = false
        @Flag(name: .long, help: "The response body (the final response of a stream).")
        var response = false
        @Flag(name: .long, help: "The events, with arrival times.")
        var events = false
        @Flag(name: .long, help: "The request and response headers.")
        var headers = false
        @Flag(name: .long, help: "Bodies and event data exactly as stored, not pretty-printed or shortened.")
        var raw = false
        @Flag(name: .long, help: "Print JSON (request body and every event included).")
        var json = false

        func run() throws {
            let parts = InspectorPresenter.Parts(request: request, response: response, events: events, headers: headers)
            try inspect(store: store) { await $0.show(id: id, parts: parts, raw: raw, json: json) }
        }
    }

    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dump",
            abstract:
                "Write one exchange as JSON, a curl command ($OPENAI_API_KEY stands for the key), its SSE stream, or HAR."
        )

        @OptionGroup var store: StoreOptions

        @Argument(help: "The exchange id.")
        var id: Int64
        @Option(name: .long, help: "The format.")
        var format: ExchangeExporter.Format = .json
        @Flag(
            name: .long,
            help: "Keep the streams' random obfuscation padding in the events (left out by default, so dumps compare).")
        var keepObfuscation = false

        func run() throws {
            try inspect(store: store) { await $0.dump(id: id, format: format, keepObfuscation: keepObfuscation) }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff", abstract: "JSON-aware differences of two exchanges' requests and responses.")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The first exchange id.")
        var first: Int64
        @Argument(help: "The second exchange id.")
        var second: Int64
        @OptionGroup var printing: OutputOptions

        func run() throws { try inspect(store: store) { await $0.diff(first, second, json: printing.json) } }
    }

    struct Replay: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract:
                "Send a recorded request again (exactly, or with fields changed); the new exchange is linked to it.",
            discussion: """
                With --against MODEL|PROVIDER|PROVIDER:MODEL, a sample of stored /responses exchanges (the ids \
                given, else --sample of those since --since, spread over the time) is sent again to that model or \
                provider, after a cost estimate and a y/N question (--yes skips it), --concurrency at a time, each \
                recorded as a replay of its original; then a report: how alike the answers are (the built-in \
                all-MiniLM-L6-v2, word overlap without it), tokens, cost and latency before and after, and the \
                exchanges that changed most (--json, --html FILE).
                """)

        @Argument(help: "The exchange id (with --against: any number of ids, or none and --since).")
        var ids: [Int64] = []
        @Option(
            name: .customLong("set"),
            help: "Change a body field: KEY=VALUE, KEY a dotted path, VALUE JSON or text; KEY= removes it.")
        var changes: [String] = []
        @Option(
            name: .long, help: "Send it to this provider instead (config.yaml's providers:), to diff the two answers.")
        var provider: String?
        @Option(name: .long, help: "Replay against a model, a provider, or PROVIDER:MODEL, and compare.")
        var against: String?
        @Option(name: .long, help: "With --against and no ids: exchanges started since this time (default 7d).")
        var since: String?
        @Option(name: .long, help: "With --against and no ids: how many exchanges, spread over the time.")
        var sample = 20
        @Option(name: .long, help: "With --against: how many requests at once.")
        var concurrency = 4
        @Flag(name: .long, help: "With --against: the comparison report (what --against prints anyway).")
        var report = false
        @Flag(name: .long, help: "With --against: do not ask before sending.")
        var yes = false
        @Option(name: .long, help: "With --against: also write the report as an HTML page to this file.")
        var html: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var printing: OutputOptions

        func validate() throws {
            guard against != nil else {
                guard ids.count == 1 else { throw ValidationError("replay takes one exchange id (or --against)") }
                let extra = [
                    since.map { _ in "--since" }, sample != 20 ? "--sample" : nil,
                    concurrency != 4 ? "--concurrency" : nil, report ? "--report" : nil, yes ? "--yes" : nil,
                    html.map { _ in "--html" }, printing.json ? "--json" : nil,
                ].compactMap { $0 }
                if let flag = extra.first { throw ValidationError("\(flag) goes with --against") }
                return
            }
            if !changes.isEmpty || provider != nil {
                throw ValidationError("--against replaces --set and --provider (name the provider in --against)")
            }
            if !ids.isEmpty, since != nil { throw ValidationError("give ids or --since, not both") }
            guard (1...1000).contains(sample) else { throw ValidationError("--sample must be 1 to 1000") }
            guard ids.count <= 1000 else { throw ValidationError("at most 1000 ids at once") }
            guard (1...32).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 32") }
        }

        func run() throws {
            if let against {
                let request = ReplayAgainstRequest(
                    target: against, ids: ids, since: try time(since ?? "7d", flag: "--since"), sample: sample,
                    concurrency: concurrency, html: html, json: printing.json)
                let ask = try confirmation(
                    skipped: yes,
                    refusal:
                        "inspect replay --against sends requests that cost money: add --yes to send them without asking"
                )
                try withContext(environment: processEnvironment) { context in
                    await ReplayRunner(context: context).against(request, confirm: ask)
                }
                return
            }
            let provider = self.provider
            let id = ids[0]
            let local = store.local
            try withContext(environment: processEnvironment.choosing(provider: provider)) { [changes] context in
                await ReplayRunner(context: context).run(
                    id: id, changes: changes, toProvider: provider, readsLocal: local)
            }
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract:
                "Requests, tokens, cost, p50/p95 latency and time to first text, error rate, by model, day, preset, provider or user."
        )

        @OptionGroup var store: StoreOptions

        @Option(name: .long, help: "What to group by.")
        var by: ExchangeStats.Grouping = .model
        @Option(name: .long, help: "Only exchanges started at or after this time.")
        var since: String?
        @OptionGroup var printing: OutputOptions

        func run() throws {
            let date = try since.map { try time($0, flag: "--since") }
            try inspect(store: store) { await $0.stats(by: by, since: date, json: printing.json) }
        }
    }

    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract:
                "Why the prompt cache missed: where each request's prompt parted from the one before, and what it cost.",
            discussion: """
                Pairs each /responses request with the one it continues (previous_response_id), else with the \
                request before it of the same preset (or, through the proxy, the same client), and compares their \
                prompts in the order the cache reads them: model and prompt_cache_key, tools, instructions, input \
                items. Shows where they part (a byte offset and the words on each side), the cached tokens the \
                server reported, and the money lost at the model's cached-input price.
                """)

        @Argument(
            help: "Exchange ids: the pairs ending at them (a chain's every turn). Default: every pair since --since.")
        var ids: [Int64] = []
        @Option(name: .long, help: "Pairs started at or after this time (default: the last 24 hours).")
        var since: String?
        @Flag(name: .long, help: "List the hits too (with ids they are always listed).")
        var all = false
        @OptionGroup var printing: OutputOptions

        func run() throws {
            let date = try since.map { try time($0, flag: "--since") }
            try inspect { [ids, all, printing] in await $0.cache(ids: ids, since: date, all: all, json: printing.json) }
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune", abstract: "Delete the exchanges (and their events) started before a time.")

        @OptionGroup var store: StoreOptions

        @Option(name: .long, help: "Delete what started before this time (2026-11-01, an ISO 8601 time, or 30d ago).")
        var before: String

        func run() throws {
            let date = try time(before, flag: "--before")
            try inspect(store: store) { await $0.prune(before: date) }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write exchanges as JSON Lines (one exchange, events included, per line), oldest first.")

        @OptionGroup var store: StoreOptions

        @Option(name: .long, help: "Only exchanges started at or after this time.")
        var since: String?

        func run() throws {
            let date = try since.map { try time($0, flag: "--since") }
            try inspect(store: store) { await $0.export(since: date) }
        }
    }
}

extension Inspect {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract:
                "Write one self-contained HTML report: a timeline, tokens and cost by day and model, each exchange's request and events."
        )

        @OptionGroup var store: StoreOptions
        @Option(name: .long, help: "Only exchanges started at or after this time.")
        var since: String?

        @Option(name: .long, help: "Only exchanges of this model.")
        var model: String?

        @Option(name: [.customShort("o"), .long], help: "The file to write.")
        var output = "report.html"

        func run() throws {
            let date = try since.map { try time($0, flag: "--since") }
            try inspect(store: store) { await $0.report(since: date, model: model, to: output) }
        }
    }
}

extension Inspect {
    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Copy this machine's recorded exchanges into a team's PostgreSQL store (Docs/team.md).",
            discussion: """
                Sends every finished exchange the team store does not have yet (a second push sends nothing). \
                The password comes from OPENRESPONSES_INSPECTOR_PASSWORD when the URL has none.
                """)

        @Option(help: "The team store (default: inspector.url or OPENRESPONSES_INSPECTOR_URL).")
        var to: String?
        @Flag(help: "Try again the exchanges the team store refused before.") var retryRefused = false

        func run() throws {
            try inspect { [to, retryRefused] in await $0.push(to: to, retryRefused: retryRefused) }
        }
    }
}

extension ExchangeExporter.Format: ExpressibleByArgument {}
extension ExchangeStats.Grouping: ExpressibleByArgument {}
