import Foundation
import Library
import MCP

/// Each indexed document as a resource, `openresponses-library://document/ID`: its extracted text.
extension LibraryMCPServer {
    static let resourcePrefix = "openresponses-library://document/"

    static func resourceURI(_ document: LibraryDocument) -> String { resourcePrefix + String(document.id) }

    func resources() async throws -> [Resource] {
        try await access.library().store.documents().filter { $0.status == .indexed }.map { document in
            Resource(
                name: document.displayName, uri: Self.resourceURI(document), description: document.path,
                mimeType: "text/plain")
        }
    }

    func read(_ uri: String) async throws -> [Resource.Content] {
        guard uri.hasPrefix(Self.resourcePrefix), let id = Int64(uri.dropFirst(Self.resourcePrefix.count)) else {
            throw MCPError.invalidParams("not a document of this library: \(uri)")
        }
        let store = try access.library().store
        guard let document = try await store.documents().first(where: { $0.id == id }),
            let (_, _, text) = try await store.chunks(ofDocumentAt: document.path)
        else {
            throw MCPError.invalidParams("no document \(id) in the library")
        }
        return [.text(text, uri: uri, mimeType: "text/plain")]
    }
}
