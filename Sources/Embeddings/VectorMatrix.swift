/// Vectors of one dimension in one contiguous row-major block, each row with an id, searched exactly: the
/// query's dot product with every row in one `cblas_sgemv` (with unit vectors, the cosine), then the best
/// `k`. An approximate index is not needed at the sizes a library has (Benchmarks/library.sh: 100,000
/// rows of 384 in a few milliseconds).
public struct VectorMatrix: Sendable {
    public let dimensions: Int
    public private(set) var ids: [Int64] = []
    public private(set) var values: [Float] = []

    public init(dimensions: Int, capacity: Int = 0) {
        self.dimensions = dimensions
        ids.reserveCapacity(capacity)
        values.reserveCapacity(capacity * dimensions)
    }

    public var count: Int { ids.count }

    /// Appends a row from its stored bytes (float32, little-endian); false when the length is not the
    /// matrix's dimension.
    @discardableResult
    public mutating func append(id: Int64, bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == dimensions * 4 else { return false }
        ids.append(id)
        let start = values.count
        values.append(contentsOf: repeatElement(0, count: dimensions))
        values.withUnsafeMutableBytes { target in
            UnsafeMutableRawBufferPointer(rebasing: target[(start * 4)...]).copyMemory(from: bytes)
        }
        return true
    }

    public mutating func append(id: Int64, vector: [Float]) {
        precondition(vector.count == dimensions, "vector of \(vector.count) values in a matrix of \(dimensions)")
        ids.append(id)
        values.append(contentsOf: vector)
    }

    /// The `k` rows with the largest dot product with `query`, best first: (row index, id, score).
    /// Only rows whose id `allowed` accepts, when it is given.
    public func nearest(_ query: [Float], k: Int, allowed: ((Int64) -> Bool)? = nil) -> [(
        index: Int, id: Int64, score: Float
    )] {
        guard count > 0, k > 0, query.count == dimensions else { return [] }
        var scores = values.withUnsafeBufferPointer {
            Self.products($0.baseAddress!, rows: count, dimensions: dimensions, query: query)
        }
        if let allowed {
            for row in 0..<count where !allowed(ids[row]) { scores[row] = -.infinity }
        }
        return Self.best(scores, k: k).filter { scores[$0] > -.infinity }.map {
            (index: $0, id: ids[$0], score: scores[$0])
        }
    }

    /// Every row's dot product with `query`: one `cblas_sgemv`, or a plain loop where OpenBLAS is missing.
    static func products(
        _ matrix: UnsafePointer<Float>, rows: Int, dimensions: Int, query: [Float], blas: BLAS? = try? BLAS.loaded()
    ) -> [Float] {
        var scores = [Float](repeating: 0, count: rows)
        query.withUnsafeBufferPointer { x in
            scores.withUnsafeMutableBufferPointer { y in
                if let blas {
                    blas.sgemv(rows: rows, columns: dimensions, matrix: matrix, x: x.baseAddress!, y: y.baseAddress!)
                } else {
                    for row in 0..<rows {
                        let start = matrix + row * dimensions
                        var sum: Float = 0
                        for j in 0..<dimensions { sum += start[j] * x[j] }
                        y[row] = sum
                    }
                }
            }
        }
        return scores
    }

    /// Indices of the `k` largest scores, largest first: one pass keeping a small sorted list, as `k` is
    /// far smaller than the rows.
    static func best(_ scores: [Float], k: Int) -> [Int] {
        var kept: [Int] = []
        kept.reserveCapacity(k + 1)
        var floor = -Float.infinity
        for (index, score) in scores.enumerated() where kept.count < k || score > floor {
            let place = kept.firstIndex { scores[$0] < score } ?? kept.count
            kept.insert(index, at: place)
            if kept.count > k { kept.removeLast() }
            if kept.count == k { floor = scores[kept[k - 1]] }
        }
        return kept
    }
}

extension Array where Element == Float {
    /// The vector as stored: float32, little-endian.
    public var storedBytes: [UInt8] {
        withUnsafeBytes { [UInt8]($0) }
    }
}
