import Embeddings
import Foundation
import Testing

/// Damaged or missing model files are errors that name the file and what is wrong with it, never a crash.
@Suite("Model files that are not what they should be")
struct ModelFilesTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "or-model-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A safetensors file: the header's length, the JSON header, the data.
    func safetensors(_ header: String, data: Int) -> [UInt8] {
        let json = Array(header.utf8)
        return withUnsafeBytes(of: UInt64(json.count).littleEndian) { Array($0) } + json
            + [UInt8](repeating: 0, count: data)
    }

    @Test func damagedSafetensorsNameTheFileAndTheFault() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        func fault(_ bytes: [UInt8]) throws -> String {
            let path = try write("model.safetensors", bytes)
            do {
                _ = try SafetensorsFile(path: path)
                return "no error"
            } catch {
                #expect(error.path == path)
                return error.message
            }
        }
        #expect(try fault([1, 2, 3]) == "is 3 bytes, too short for a safetensors file")
        #expect(try fault(withUnsafeBytes(of: UInt64(1 << 40).littleEndian) { Array($0) }).contains("does not fit"))
        #expect(try fault(safetensors("not json", data: 0)).contains("header is not JSON"))
        #expect(
            try fault(safetensors(#"{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#, data: 8))
                == "tensor w spans bytes 0..<16, beyond the file's 8")
        #expect(
            try fault(safetensors(#"{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}"#, data: 16))
                == "tensor w: shape [3] of F32 is not 16 bytes")
        let good = try SafetensorsFile(
            path: try write(
                "ok.safetensors", safetensors(#"{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}"#, data: 16)))
        #expect(throws: EmbeddingError(path: good.path, "tensor w has shape [2, 2], expected [4]")) {
            try good.floats("w", shape: [4])
        }
        #expect(throws: EmbeddingError(path: good.path, "has no tensor v")) { try good.floats("v", shape: [4]) }
    }

    @Test func aFolderWithoutTheModelSaysWhichFileIsMissing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: EmbeddingError(path: folder.path, "has no model.safetensors")) {
            try MiniLMModel(folder: folder.path)
        }
        _ = try write("model.safetensors", safetensors("{}", data: 0))
        #expect(throws: EmbeddingError(path: folder.path, "has no vocab.txt")) { try MiniLMModel(folder: folder.path) }
        _ = try write("vocab.txt", Array("[PAD]\n[UNK]\n[CLS]\n[SEP]\nhello\n".utf8))
        #expect(
            throws: EmbeddingError(
                path: folder.path + "/model.safetensors", "has no tensor embeddings.word_embeddings.weight")
        ) {
            try MiniLMModel(folder: folder.path)
        }
    }

    @Test func aVectorFileCutShortIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var matrix = VectorMatrix(dimensions: 3)
        matrix.append(id: 7, vector: [1, 0, 0])
        matrix.append(id: 9, vector: [0, 1, 0])
        let path = folder.appendingPathComponent("vectors").path
        try VectorFile.write(matrix, embedder: "letters@x", generation: 42, to: path)
        let file = try VectorFile(path: path)
        #expect(file.embedder == "letters@x" && file.generation == 42 && file.count == 2)
        #expect(file.nearest([0, 1, 0], k: 1).map(\.id) == [9])
        #expect(file.nearest([0, 1, 0], k: 2, allowed: { $0 == 7 }).map(\.id) == [7])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast(4).write(to: URL(fileURLWithPath: path))
        #expect(throws: EmbeddingError(path: path, "is not a vector file of this version, or is cut short")) {
            try VectorFile(path: path)
        }
    }
}
