import Foundation
import NIOCore

/// Files and uploads: `/files` (multipart, streamed from disk) and `/uploads` for files above one
/// request's limit, sent in parts.
extension ResponsesClient {
    /// Files up to this size go in one `POST /files`; bigger ones through the Uploads API.
    public static let singleUploadLimit = 512 * 1024 * 1024
    /// The size of one Uploads API part (the API takes up to 64 MB).
    public static let uploadPartSize = 64 * 1024 * 1024

    /// Uploads the file at `url` with `purpose`; returns the file object. `progress` is called with the
    /// bytes sent so far.
    /// `singleLimit` and `partSize` are the API's limits unless a test sets smaller ones.
    public func uploadFile(
        _ url: URL, purpose: String, mediaType: String = "application/octet-stream",
        progress: (@Sendable (Int) -> Void)? = nil, context: ExchangeContext = ExchangeContext(),
        singleLimit: Int = ResponsesClient.singleUploadLimit, partSize: Int = ResponsesClient.uploadPartSize
    ) async throws(ResponsesAPIError) -> JSONValue {
        let size = try LocalFile.size(of: url)
        if size > singleLimit {
            return try await uploadInParts(
                url, size: size, partSize: partSize, purpose: purpose, mediaType: mediaType, progress: progress,
                context: context)
        }
        let body = try MultipartUpload(
            fields: [("purpose", purpose)], fileURL: url, mediaType: mediaType, progress: progress
        ).body()
        return try await send(method: "POST", path: "/files", requestBody: .streamed(body), context: context).0
    }

    /// The Uploads API: create, add the parts in order, complete.
    func uploadInParts(
        _ url: URL, size: Int, partSize: Int, purpose: String, mediaType: String, progress: (@Sendable (Int) -> Void)?,
        context: ExchangeContext
    ) async throws(ResponsesAPIError) -> JSONValue {
        let upload = try await json(
            "POST", "/uploads",
            [
                "filename": .string(url.lastPathComponent), "purpose": .string(purpose), "bytes": .integer(size),
                "mime_type": .string(mediaType),
            ],
            context: context)
        guard let uploadID = upload["id"]?.stringValue else {
            throw ResponsesAPIError(code: .decoding, message: "the upload was created without an id")
        }
        var partIDs: [JSONValue] = []
        var offset = 0
        while offset < size {
            let end = min(offset + partSize, size)
            let base = offset
            var partProgress: (@Sendable (Int) -> Void)?
            if let progress { partProgress = { sent in progress(base + sent) } }
            let upload = MultipartUpload(
                fields: [], fileField: "data", fileURL: url, range: offset..<end, progress: partProgress)
            let body = try upload.body()
            let part = try await send(
                method: "POST", path: Self.path("/uploads", uploadID, "parts"), requestBody: .streamed(body),
                context: context
            ).0
            guard let id = part["id"]?.stringValue else {
                throw ResponsesAPIError(code: .decoding, message: "an upload part came back without an id")
            }
            partIDs.append(.string(id))
            offset = end
        }
        let completed = try await json(
            "POST", Self.path("/uploads", uploadID, "complete"), ["part_ids": .array(partIDs)], context: context)
        return completed["file"] ?? completed
    }

    public func listFiles(
        purpose: String? = nil, page: PageRequest = PageRequest(), context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Page<JSONValue> {
        Page(
            json: try await json(
                "GET", Self.path("/files", query: (purpose.map { [("purpose", $0)] } ?? []) + page.query),
                context: context))
    }

    public func allFiles(purpose: String? = nil, pageSize: Int = 100, context: ExchangeContext = ExchangeContext())
        async throws(ResponsesAPIError) -> [JSONValue]
    {
        try await collectPages(pageSize: pageSize) { page throws(ResponsesAPIError) in
            try await listFiles(purpose: purpose, page: page, context: context)
        }
    }

    public func file(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> JSONValue
    {
        try await json("GET", Self.path("/files", id), context: context)
    }

    public func deleteFile(id: String, context: ExchangeContext = ExchangeContext()) async throws(ResponsesAPIError)
        -> Deletion
    {
        Deletion(json: try await json("DELETE", Self.path("/files", id), context: context))
    }

    /// Writes the file's content to `destination` as it arrives; returns the number of bytes. Past
    /// `maximumBytes` (when given) the download stops with an error: a server cannot fill the disk.
    public func downloadFile(
        id: String, to destination: URL, progress: (@Sendable (Int) -> Void)? = nil, maximumBytes: Int? = nil,
        context: ExchangeContext = ExchangeContext()
    ) async throws(ResponsesAPIError) -> Int {
        try await download(
            Self.path("/files", id, "content"), to: destination, progress: progress, maximumBytes: maximumBytes,
            context: context)
    }

    /// GETs `path` and writes the body to `destination` as it arrives (the recording keeps its size, not
    /// its bytes); returns the number of bytes.
    func download(
        _ path: String, to destination: URL, progress: (@Sendable (Int) -> Void)?, maximumBytes: Int? = nil,
        context: ExchangeContext
    ) async throws(ResponsesAPIError) -> Int {
        let (exchange, response) = try await open(
            method: "GET", path: path, body: nil as RequestBody?, accept: "*/*", context: context)
        var written = 0
        do {
            guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
                throw ResponsesAPIError(code: .configuration, message: "\(destination.path): cannot create it")
            }
            let handle = try FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            for try await chunk in response.body {
                if let maximumBytes, written + chunk.readableBytes > maximumBytes {
                    throw ResponsesAPIError(
                        code: .protocolViolation,
                        message:
                            "\(path): the file is larger than \(ByteSize.text(maximumBytes)); the download was stopped")
                }
                try handle.write(contentsOf: Data(chunk.readableBytesView))
                written += chunk.readableBytes
                progress?(written)
            }
            exchange.recording?.didReceiveBody(Array("<\(written) bytes saved to \(destination.path)>".utf8))
            await exchange.finish(ExchangeOutcome(state: .completed, duration: exchange.elapsed))
            return written
        } catch {
            let failure = exchange.attach(ResponsesAPIError(wrapping: error))
            await exchange.finish(
                ExchangeOutcome(failure: failure, duration: exchange.elapsed))
            throw failure
        }
    }

    /// A JSON request with an optional JSON object body; the answer's JSON.
    func json(
        _ method: String, _ path: String, _ body: JSONObject? = nil, context: ExchangeContext
    ) async throws(ResponsesAPIError) -> JSONValue {
        try await send(
            method: method, path: path, body: body.map { JSONValue.object($0).serialized() }, context: context
        ).0
    }
}
