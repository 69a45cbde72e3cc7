import Foundation
import Inspector
import Proxy
import ResponsesAPI
import TestSupport
import Testing

/// A proxy shared by a team (`--tokens-file`): each exchange recorded with its user, and a user who has spent
/// its daily budget refused with 429 before anything goes upstream, while the others go on.
@Suite("recording proxy: users and budgets")
struct ProxyBudgetTests {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("or-proxy-budget-\(UUID().uuidString)")
    static let users = ProxyUsers([
        .init(name: "alice", token: "s3cr3t-alice", budget: 1.00),
        .init(name: "bob", token: "s3cr3t-bob"),
    ])
    /// A response of 1,000,000 input tokens on gpt-5.1: $1.25 by the shipped price table.
    static let priced =
        #"{"id":"resp_budget","object":"response","created_at":1,"status":"completed","model":"gpt-5.1","output":[],"usage":{"input_tokens":1000000,"output_tokens":0,"total_tokens":1000000}}"#

    func post(_ proxy: ProxyHarness, as token: String) async throws -> (status: String, body: JSONValue?) {
        let result = try await proxy.curl(
            "/responses",
            [
                "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json", "--data-binary",
                #"{"model":"gpt-5.1","input":"hi"}"#,
            ],
            output: out)
        return (result.stdout, try? JSONValue.parse(Array(Data(contentsOf: out))))
    }

    @Test func eachExchangeIsRecordedWithItsUser() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        let proxy = try await ProxyHarness.start(
            upstream: upstream.baseURL, upstreamKey: "sk-team-0010", users: Self.users, budget: 100)
        defer { proxy.remove(stopping: upstream) }
        #expect(try await post(proxy, as: "s3cr3t-bob").status == "200")
        #expect(try await post(proxy, as: "s3cr3t-alice").status == "200")
        let unknown = try await post(proxy, as: "s3cr3t-carol")
        #expect(unknown.status == "401" && unknown.body?["error"]?["code"] == "invalid_proxy_token")
        #expect(upstream.requests.count == 2, "an unknown token reaches nothing")
        #expect(upstream.requests.allSatisfy { $0.header("authorization") == "Bearer sk-team-0010" })

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        #expect(rows.map(\.summary.user) == ["bob", "alice", nil])
        var alices = ExchangeQuery()
        alices.user = "alice"
        #expect(try await store.exchanges(matching: alices).map(\.user) == ["alice"])
        let stats = try await store.stats(by: .user)
        #expect(
            Set(stats.groups.map { "\($0.key) \($0.requests) \($0.costUSD ?? -1)" })
                == ["alice 1 1.25", "bob 1 1.25", "(none) 1 -1.0"])
        for token in ["s3cr3t-alice", "s3cr3t-bob", "s3cr3t-carol", "sk-team-0010"] {
            #expect(try !proxy.storeContains(token), "\(token)")
        }
    }

    @Test func aUserOverBudgetIsRefusedBeforeAnythingGoesUpstream() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        let proxy = try await ProxyHarness.start(
            upstream: upstream.baseURL, upstreamKey: "sk-team-0011", users: Self.users)
        defer { proxy.remove(stopping: upstream) }
        #expect(try await post(proxy, as: "s3cr3t-alice").status == "200", "nothing spent yet")
        let refused = try await post(proxy, as: "s3cr3t-alice")
        #expect(refused.status == "429")
        #expect(upstream.requests.count == 1, "the refused request reached nothing upstream")
        let error = try #require(refused.body?["error"])
        #expect(error["type"] == "budget_exceeded" && error["code"] == "budget_exceeded")
        #expect(
            error["message"]
                == "refused by the proxy: user alice has spent $1.25 of its daily budget of $1.00 since 00:00 UTC; the budget renews at midnight UTC"
        )
        // bob has no budget (none in the file, no --budget-per-user): never asked about, never refused.
        #expect(try await post(proxy, as: "s3cr3t-bob").status == "200")
        #expect(try await post(proxy, as: "s3cr3t-bob").status == "200")
        #expect(upstream.requests.count == 3)
        #expect(proxy.spending.asked == 2, "only alice's requests asked the store")

        let store = try await proxy.stop()
        let rows = try await proxy.exchanges(in: store)
        let refusal = try #require(rows.first { $0.summary.status == 429 })
        #expect(refusal.summary.user == "alice" && refusal.summary.state == "failed")
        #expect(refusal.summary.errorMessage?.hasPrefix("refused by the proxy: user alice has spent $1.25") == true)
    }

    @Test func theFigureIsKeptBrieflySoABurstAsksOnce() async throws {
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        let proxy = try await ProxyHarness.start(
            upstream: upstream.baseURL, upstreamKey: "sk-team-0012", users: Self.users,
            spendFreshness: .seconds(600))
        defer { proxy.remove(stopping: upstream) }
        // 50 requests of alice at once (one curl, in parallel): the store is asked once, and all go through on
        // the figure read before any had ended ($0), though each costs $1.25 of her $1.00. This is the
        // overshoot the documentation names.
        var arguments = [
            "-sS", "--parallel", "--parallel-immediate", "--parallel-max", "50", "-w", "%{http_code}\n",
            "-H", "Authorization: Bearer s3cr3t-alice", "-H", "Content-Type: application/json",
            "--data-binary", #"{"model":"gpt-5.1","input":"hi"}"#,
        ]
        for _ in 0..<50 { arguments += ["-o", "/dev/null", proxy.baseURL + "/responses"] }
        let burst = try await Subprocess.run("/usr/bin/curl", arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(burst.stdout.split(separator: "\n") == Array(repeating: "200", count: 50), "\(burst.stderr)")
        #expect(proxy.spending.asked == 1)
        #expect(upstream.requests.count == 50)
        _ = try await proxy.stop()
    }

    /// The store cannot say what alice spent: her request is refused (503) and nothing goes upstream.
    @Test func aBudgetThatCannotBeCheckedForwardsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: out) }
        let upstream = try await LoopbackServer.start { _ in .json(Self.priced) }
        let proxy = try await ProxyHarness.start(
            upstream: upstream.baseURL, upstreamKey: "sk-team-0013", users: Self.users, spending: Unreadable())
        defer { proxy.remove(stopping: upstream) }
        let refused = try await post(proxy, as: "s3cr3t-alice")
        #expect(refused.status == "503")
        #expect(refused.body?["error"]?["code"] == "budget_unavailable")
        #expect(
            refused.body?["error"]?["message"]?.stringValue?.contains(
                "user alice has a daily budget of $1.00, and what it has spent today cannot be read from the store (the disk is on fire)"
            ) == true, "\(String(describing: refused.body))")
        #expect(upstream.requests.isEmpty)
        #expect(try await post(proxy, as: "s3cr3t-bob").status == "200", "a user without a budget goes on")
        _ = try await proxy.stop()
    }

    struct Unreadable: SpendReading {
        struct Failure: Error, CustomStringConvertible { var description: String { "the disk is on fire" } }
        func spent(user: String, since: Date) async throws -> Double { throw Failure() }
    }
}
