import Foundation
import NIOCore
import ResponsesAPI

/// Fetches a URL for a fragment: one GET through the console's HTTP transport (redirects followed at most
/// five times, by the transport), with no credentials (the API key never goes to another host: the request
/// carries only these headers), the body capped at `maxBytes` (by its Content-Length, then as it arrives)
/// and the whole fetch bounded by `timeout`. Anything but a 2xx answer is an error naming the URL.
public struct FragmentFetcher: Sendable {
    public var transport: any HTTPTransport
    public var maxBytes: Int
    public var timeout: Duration

    /// 16 MB: a long web page, a book-length PDF.
    public static let defaultMaxBytes = 16 << 20
    public static let defaultTimeout = Duration.seconds(30)

    public init(transport: any HTTPTransport, maxBytes: Int = defaultMaxBytes, timeout: Duration = defaultTimeout) {
        self.transport = transport
        self.maxBytes = maxBytes
        self.timeout = timeout
    }

    /// A download: its body and Content-Type.
    public struct Fetched: Sendable {
        public var body: Data
        public var contentType: String?
    }

    public func fetch(_ url: URL) async throws(FragmentError) -> Fetched {
        let source = url.absoluteString
        let timeout = self.timeout
        let result = await withTaskGroup(of: Result<Fetched, FragmentError>?.self) { group in
            group.addTask { await self.download(url) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let result else {
            throw FragmentError(source: source, "no answer within \(timeout.components.seconds) s")
        }
        return try result.get()
    }

    private func download(_ url: URL) async -> Result<Fetched, FragmentError> {
        let source = url.absoluteString
        let request = TransportRequest(
            method: "GET", url: source,
            headers: [
                ("User-Agent", "openresponses"),
                ("Accept", "text/html, text/plain, text/markdown, application/pdf, */*;q=0.5"),
            ])
        do {
            let response = try await transport.execute(request)
            guard (200..<300).contains(response.status) else {
                return .failure(FragmentError(source: source, "the server answered HTTP \(response.status)"))
            }
            if let length = response.header("Content-Length").flatMap(Int.init), length > maxBytes {
                return .failure(tooLarge(source, ByteSize.text(length) + ","))
            }
            var body = Data()
            for try await chunk in response.body {
                guard body.count + chunk.readableBytes <= maxBytes else {
                    return .failure(tooLarge(source, nil))
                }
                body.append(contentsOf: chunk.readableBytesView)
            }
            return .success(Fetched(body: body, contentType: response.header("Content-Type")))
        } catch let error as ResponsesAPIError {
            return .failure(FragmentError(source: source, "cannot fetch it: \(error.message)"))
        } catch {
            return .failure(FragmentError(source: source, "cannot fetch it: \(error)"))
        }
    }

    private func tooLarge(_ source: String, _ size: String?) -> FragmentError {
        FragmentError(
            source: source,
            "its body is \(size.map { $0 + " " } ?? "")over the \(ByteSize.text(maxBytes)) a fragment may fetch",
            hint: "download it and give the file instead (-f FILE)")
    }
}
