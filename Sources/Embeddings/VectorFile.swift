import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `VectorMatrix` saved as one file and memory-mapped when read, so a search does not load every vector
/// from the database again: at 100,000 chunks that load took most of a second, the mapped file costs
/// nothing to open and one pass of the product over its pages. The header names the embedder and the
/// library's generation the vectors were read at; a reader whose library has moved on rebuilds it.
///
/// Layout (little-endian): "ORVECS01", dimensions (UInt32), count (UInt32), generation (UInt64), the
/// embedder's name (UInt32 length, then UTF-8, padded to 8 bytes), count ids (Int64), count × dimensions
/// float32.
public final class VectorFile: Sendable {
    static let magic = Array("ORVECS01".utf8)

    public let path: String
    public let dimensions: Int
    public let count: Int
    public let generation: UInt64
    public let embedder: String
    private let file: MappedFile
    private let idsOffset: Int
    private let valuesOffset: Int

    public init(path: String) throws(EmbeddingError) {
        self.path = path
        file = try MappedFile(path: path, minimumLength: 32, kind: "a vector file")
        let base = file.base
        dimensions = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt32.self)))
        count = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
        let nameLength = Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 24, as: UInt32.self)))
        idsOffset = 28 + (nameLength + 7) / 8 * 8 + 4
        valuesOffset = idsOffset + count * 8
        guard Array(UnsafeRawBufferPointer(start: base, count: 8)) == Self.magic, dimensions > 0, nameLength < 4096,
            valuesOffset + count * dimensions * 4 == file.length, idsOffset % 8 == 0
        else { throw EmbeddingError(path: path, "is not a vector file of this version, or is cut short") }
        generation = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        embedder = String(decoding: UnsafeRawBufferPointer(start: base + 28, count: nameLength), as: UTF8.self)
    }

    /// Writes `matrix` to `path` (mode 0600) through a temporary file renamed into place, so a reader never
    /// sees half a file and two writers cannot interleave.
    public static func write(_ matrix: VectorMatrix, embedder: String, generation: UInt64, to path: String)
        throws(EmbeddingError)
    {
        let name = Array(embedder.utf8)
        var data = Data(magic)
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        append(UInt32(matrix.dimensions))
        append(UInt32(matrix.count))
        append(generation)
        append(UInt32(name.count))
        data.append(contentsOf: name)
        data.append(contentsOf: [UInt8](repeating: 0, count: (name.count + 7) / 8 * 8 - name.count + 4))
        matrix.ids.withUnsafeBytes { data.append(contentsOf: $0) }
        matrix.values.withUnsafeBytes { data.append(contentsOf: $0) }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw EmbeddingError(path: temporary, "cannot create: \(String(cString: strerror(errno)))")
        }
        let written = data.withUnsafeBytes { bytes in
            #if canImport(Glibc)
                Glibc.write(fd, bytes.baseAddress, bytes.count)
            #else
                Darwin.write(fd, bytes.baseAddress, bytes.count)
            #endif
        }
        close(fd)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw EmbeddingError(path: path, "cannot write the vector file: \(String(cString: strerror(errno)))")
        }
    }

    /// The `k` rows with the largest dot product with `query`, best first, among the ids `allowed` accepts.
    public func nearest(_ query: [Float], k: Int, allowed: ((Int64) -> Bool)? = nil) -> [(id: Int64, score: Float)] {
        guard count > 0, k > 0, query.count == dimensions else { return [] }
        let values = (file.base + valuesOffset).assumingMemoryBound(to: Float.self)
        let ids = (file.base + idsOffset).assumingMemoryBound(to: Int64.self)
        var scores = VectorMatrix.products(values, rows: count, dimensions: dimensions, query: query)
        if let allowed {
            for row in 0..<count where !allowed(Int64(littleEndian: ids[row])) { scores[row] = -.infinity }
        }
        return VectorMatrix.best(scores, k: k).filter { scores[$0] > -.infinity }.map {
            (id: Int64(littleEndian: ids[$0]), score: scores[$0])
        }
    }
}
