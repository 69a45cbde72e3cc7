import Foundation

/// Computing the vectors the library lacks.
extension LibraryStore {
    /// Embeds every distinct chunk text that has no vector from `embedder`, `batch` texts at a time, each
    /// batch stored as it is done (so an interruption keeps what was computed; the next call goes on from
    /// there). Records `embedder` as the library's. `progress` hears (done, total). Returns how many texts
    /// were embedded.
    @discardableResult
    public func embedMissing(
        with embedder: any Embedder, batch: Int = 64, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Int {
        let identifier = embedder.identifier
        let missing = try await vectorCoverage(embedder: identifier).missing
        if try await self.embedder() != identifier { try await setEmbedder(identifier) }
        guard missing > 0 else { return 0 }
        var done = 0
        progress(0, missing)
        while !Task.isCancelled {
            let texts = try await textsWithoutVectors(embedder: identifier, limit: batch)
            if texts.isEmpty { break }
            let vectors = try await embedder.embed(texts.map(\.text))
            guard vectors.count == texts.count else {
                throw LibraryServiceError(
                    "the embedder \(identifier) gave \(vectors.count) vectors for \(texts.count) texts")
            }
            let dimension = vectors.first?.count ?? 0
            guard dimension > 0, vectors.allSatisfy({ $0.count == dimension }) else {
                throw LibraryServiceError("the embedder \(identifier) gave vectors of different lengths")
            }
            try await storeVectors(
                embedder: identifier, zip(texts, vectors).map { (sha256: $0.sha256, vector: Self.unit($1)) })
            done += texts.count
            progress(min(done, missing), missing)
        }
        await settle()
        return done
    }

    /// The vector scaled to length 1 (the models' own are already; a server's may not be), so a dot
    /// product is the cosine.
    static func unit(_ vector: [Float]) -> [Float] {
        let norm = vector.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return vector }
        return vector.map { $0 / norm }
    }

    /// The dot product: the cosine of two unit vectors.
    static func dot(_ a: [Float], _ b: [Float]) -> Double {
        Double(zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 })
    }
}
