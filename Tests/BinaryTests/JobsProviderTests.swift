import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// A background job lives on the server that created it: `jobs`, `attach` and `cancel` ask the provider
/// the ledger names for it, with that provider's key, whatever the command's own server; `--provider`
/// overrides it.
@Suite("background jobs on named providers")
struct JobsProviderTests {
    let home = TestHome("jobprov")

    static func jobServer(id: String, status: String) -> @Sendable (ReceivedRequest) -> Reply {
        { request in
            switch (request.method, request.path) {
            case ("POST", "/v1/responses"):
                return .sse(Fixtures.textStream(id: id, text: "Working on it"))
            case ("GET", "/v1/responses/\(id)"):
                return .json(
                    #"{"id":"\#(id)","object":"response","status":"\#(status)","model":"m","output":[{"id":"msg_j","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Answer from \#(id).","annotations":[]}]}]}"#
                )
            case ("POST", "/v1/responses/\(id)/cancel"):
                return .json(#"{"id":"\#(id)","object":"response","status":"cancelled","model":"m","output":[]}"#)
            default:
                return .json(#"{"error":{"message":"No response found with id."}}"#, status: 404)
            }
        }
    }

    @Test func jobsAttachAndCancelAskTheProviderTheJobWasCreatedOn() async throws {
        defer { home.remove() }
        try await home.withDefaultAndBeta(
            Self.jobServer(id: "resp_here", status: "in_progress"), Self.jobServer(id: "resp_beta", status: "completed")
        ) {
            plain, beta, environment in
            let here = try await home.run(
                ["ask", "--model", "m", "--background", "plain job"], environment: environment)
            #expect(here.status == 0, "\(here.stderr)")
            let there = try await home.run(
                ["ask", "--provider", "beta", "--model", "m", "--background", "beta job"], environment: environment)
            #expect(there.status == 0, "\(there.stderr)")

            // Each job's status comes from its own server, with its own key.
            let jobs = try await home.run(["jobs", "--json"], environment: environment)
            #expect(jobs.status == 0, "\(jobs.stderr)")
            let listed = try #require(try JSONValue.parse(Array(jobs.stdout.utf8)).arrayValue)
            let byID = Dictionary(
                uniqueKeysWithValues: listed.compactMap { job in job["id"]?.stringValue.map { ($0, job) } })
            #expect(byID["resp_here"]?["status"]?.stringValue == "in_progress", "\(jobs.stdout)")
            #expect(byID["resp_here"]?["provider"]?.stringValue == "default")
            #expect(byID["resp_beta"]?["status"]?.stringValue == "completed", "\(jobs.stdout)")
            #expect(byID["resp_beta"]?["provider"]?.stringValue == "beta")
            #expect(
                beta.requests.contains {
                    $0.method == "GET" && $0.path == "/v1/responses/resp_beta"
                        && $0.header("authorization") == "Bearer sk-beta-secret-0000"
                })
            #expect(
                !plain.requests.contains { $0.path.contains("resp_beta") },
                "the default server is never asked about beta's job")
            let table = try await home.run(["jobs"], environment: environment)
            #expect(table.stdout.split(separator: "\n").first?.contains("PROVIDER") == true, "\(table.stdout)")

            // attach and cancel follow the ledger to beta; --provider asks where it says.
            let attached = try await home.run(["attach", "resp_beta"], environment: environment)
            #expect(attached.status == 0, "\(attached.stderr)")
            #expect(attached.stdout == "Answer from resp_beta.\n")
            #expect(
                attached.stderr.contains(
                    "note: resp_beta was created on provider beta (\(beta.baseURL)); asking it there"),
                "\(attached.stderr)")
            let cancelled = try await home.run(["cancel", "resp_beta"], environment: environment)
            #expect(cancelled.status == 0, "\(cancelled.stderr)")
            #expect(beta.requests.last?.path == "/v1/responses/resp_beta/cancel")
            #expect(beta.requests.last?.header("authorization") == "Bearer sk-beta-secret-0000")
            let pinned = try await home.run(["cancel", "resp_beta", "--provider", "default"], environment: environment)
            #expect(pinned.status != 0, "the default server does not know beta's job")
            #expect(plain.requests.last?.path == "/v1/responses/resp_beta/cancel")

            // A job whose provider left config.yaml is reported, not asked of the wrong server.
            try home.write("config.yaml", "version: 1\n")
            let orphan = try await home.run(["jobs", "--json"], environment: environment)
            #expect(orphan.status == 0, "\(orphan.stderr)")
            #expect(orphan.stdout.contains("on beta: no provider beta"), "\(orphan.stdout)")
            let lost = try await home.run(["attach", "resp_beta"], environment: environment)
            #expect(lost.status != 0)
            #expect(
                lost.stderr.contains("resp_beta was created on provider beta, which cannot be used: no provider beta"),
                "\(lost.stderr)")
        }
    }
}
