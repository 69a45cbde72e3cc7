import Foundation

/// A `.safetensors` file, memory-mapped read-only: an 8-byte little-endian header length, a JSON header
/// naming each tensor's dtype, shape and byte range, then the tensors' bytes. Tensors are read in place
/// (no copy, `MappedFile`): the weights are in memory once, shared by every thread. The mapping lives as long
/// as this value.
public final class SafetensorsFile: Sendable {
    public struct Tensor: Sendable {
        public var dtype: String
        public var shape: [Int]
        public var start: Int
        public var end: Int
    }

    public let path: String
    public let tensors: [String: Tensor]
    private let file: MappedFile
    private let dataStart: Int

    public init(path: String) throws(EmbeddingError) {
        self.path = path
        file = try MappedFile(path: path, minimumLength: 8, kind: "a safetensors file")
        let headerLength = Int(UInt64(littleEndian: file.base.loadUnaligned(as: UInt64.self)))
        guard headerLength > 0, 8 + headerLength <= file.length else {
            throw EmbeddingError(path: path, "header length \(headerLength) does not fit in \(file.length) bytes")
        }
        tensors = try Self.parseHeader(
            Data(bytes: file.base + 8, count: headerLength), dataLength: file.length - 8 - headerLength, path: path)
        dataStart = 8 + headerLength
    }

    /// A float32 tensor's values, checked against the shape the caller expects.
    public func floats(_ name: String, shape expected: [Int]) throws(EmbeddingError) -> UnsafeBufferPointer<Float> {
        guard let tensor = tensors[name] else { throw EmbeddingError(path: path, "has no tensor \(name)") }
        guard tensor.dtype == "F32" else {
            throw EmbeddingError(path: path, "tensor \(name) is \(tensor.dtype), expected F32")
        }
        guard tensor.shape == expected else {
            throw EmbeddingError(path: path, "tensor \(name) has shape \(tensor.shape), expected \(expected)")
        }
        let address = file.base + dataStart + tensor.start
        guard Int(bitPattern: address) % MemoryLayout<Float>.alignment == 0 else {
            throw EmbeddingError(path: path, "tensor \(name) is not aligned to 4 bytes in the file")
        }
        let pointer = address.assumingMemoryBound(to: Float.self)
        return UnsafeBufferPointer(start: pointer, count: (tensor.end - tensor.start) / 4)
    }

    static func parseHeader(_ header: Data, dataLength: Int, path: String) throws(EmbeddingError) -> [String: Tensor] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: header) } catch {
            throw EmbeddingError(path: path, "header is not JSON: \(error.localizedDescription)")
        }
        guard let entries = object as? [String: Any] else {
            throw EmbeddingError(path: path, "header is not a JSON object")
        }
        let sizes = ["F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I8": 1, "U8": 1, "F64": 8, "BOOL": 1]
        var tensors: [String: Tensor] = [:]
        for (name, value) in entries where name != "__metadata__" {
            guard let entry = value as? [String: Any], let dtype = entry["dtype"] as? String,
                let shape = entry["shape"] as? [Int], let offsets = entry["data_offsets"] as? [Int], offsets.count == 2
            else { throw EmbeddingError(path: path, "header entry \(name) lacks dtype, shape or data_offsets") }
            let (start, end) = (offsets[0], offsets[1])
            guard start >= 0, start <= end, end <= dataLength else {
                throw EmbeddingError(
                    path: path, "tensor \(name) spans bytes \(start)..<\(end), beyond the file's \(dataLength)")
            }
            if let size = sizes[dtype], shape.reduce(size, *) != end - start {
                throw EmbeddingError(
                    path: path, "tensor \(name): shape \(shape) of \(dtype) is not \(end - start) bytes")
            }
            tensors[name] = Tensor(dtype: dtype, shape: shape, start: start, end: end)
        }
        return tensors
    }
}
