import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// `containers files` and `containers download`: the built binary against a loopback server that holds
/// one code interpreter container with two files (pagination followed), and an unknown container.
@Suite("containers files and download")
struct ContainersCommandTests {
    static let chart: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    static func route(_ request: ReceivedRequest) -> Reply {
        let file1 =
            #"{"id":"cfile_1","object":"container.file","created_at":1795270000,"bytes":120,"container_id":"cntr_1","path":"/mnt/data/data.csv","source":"assistant"}"#
        let file2 =
            #"{"id":"cfile_2","object":"container.file","created_at":1795270001,"bytes":\#(chart.count),"container_id":"cntr_1","path":"/mnt/data/out/chart.png","source":"user"}"#
        switch request.path {
        case "/v1/containers/cntr_1/files" where request.uri.contains("after=cfile_1"):
            return .json(
                #"{"object":"list","data":[\#(file2)],"first_id":"cfile_2","last_id":"cfile_2","has_more":false}"#)
        case "/v1/containers/cntr_1/files":
            return .json(
                #"{"object":"list","data":[\#(file1)],"first_id":"cfile_1","last_id":"cfile_1","has_more":true}"#)
        case "/v1/containers/cntr_1/files/cfile_2": return .json(file2)
        case "/v1/containers/cntr_1/files/cfile_2/content":
            return Reply(status: 200, headers: [("Content-Type", "image/png")], parts: [.bytes(chart)])
        default:
            return .json(
                #"{"error":{"message":"No container found with id 'cntr_nope'.","type":"invalid_request_error","code":null}}"#,
                status: 404, headers: [("x-request-id", "req_404")])
        }
    }

    @Test func listsEveryPageAndSavesAFileUnderItsOwnNameOrAnother() async throws {
        let harness = try await ConsoleHarness.start(route: Self.route)
        defer { harness.close() }
        let binary = Subprocess.openresponsesBinary

        let list = try await Subprocess.run(binary, ["containers", "files", "cntr_1"], environment: harness.variables)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stdout
                == "cfile_1  /mnt/data/data.csv  120 B  assistant\ncfile_2  /mnt/data/out/chart.png  5.0 KB  user\n")
        let json = try await Subprocess.run(
            binary, ["containers", "files", "cntr_1", "--json"], environment: harness.variables)
        #expect(try JSONValue.parse(Array(json.stdout.utf8)).arrayValue?.count == 2)

        // Under its own name, in the working directory.
        let directory = harness.home.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let own = try await Subprocess.run(
            "/bin/sh",
            ["-c", "cd \"$1\" && exec \"$2\" containers download cntr_1 cfile_2", "sh", directory.path, binary],
            environment: harness.variables)
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout.hasPrefix("Saved cfile_2 to ") && own.stdout.contains("chart.png"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("chart.png")) == Data(Self.chart))

        let elsewhere = directory.appendingPathComponent("renamed.png").path
        let named = try await Subprocess.run(
            binary, ["containers", "download", "cntr_1", "cfile_2", "-o", elsewhere, "--json"],
            environment: harness.variables)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try JSONValue.parse(Array(named.stdout.utf8))["bytes"]?.intValue == Self.chart.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == Data(Self.chart))

        let unknown = try await Subprocess.run(
            binary, ["containers", "files", "cntr_nope"], environment: harness.variables)
        #expect(unknown.status != 0)
        #expect(
            unknown.stderr.contains("No container found with id 'cntr_nope'.") && unknown.stderr.contains("req_404"),
            "\(unknown.stderr)")
    }
}
