import Foundation

/// The files of code interpreter containers: what a `container_file_citation` points at (a chart, a CSV
/// the model wrote), listed and downloaded. Containers themselves are created by the code interpreter tool.
extension ResponsesClient {
    public func listContainerFiles(
        containerID: String, page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        Page(
            json: try await json(
                "GET", Self.path("/containers", containerID, "files", query: page.query), context: context))
    }

    /// Every file of the container, following pagination.
    public func allContainerFiles(
        containerID: String, pageSize: Int = 100, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> [JSONValue] {
        try await collectPages(pageSize: pageSize) { page throws(ResponsesAPIError) in
            try await listContainerFiles(containerID: containerID, page: page, context: context)
        }
    }

    public func containerFile(
        containerID: String, fileID: String, context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> JSONValue {
        try await json("GET", Self.path("/containers", containerID, "files", fileID), context: context)
    }

    /// Writes a container file's content to `destination` as it arrives; returns the number of bytes.
    public func downloadContainerFile(
        containerID: String, fileID: String, to destination: URL, progress: (@Sendable (Int) -> Void)? = nil,
        context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Int {
        try await download(
            Self.path("/containers", containerID, "files", fileID, "content"), to: destination, progress: progress,
            context: context)
    }
}
