import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file memory-mapped read-only, unmapped when the value goes: the weights and the vector file
/// are read in place, shared by every thread, and pages never touched are never read.
final class MappedFile: Sendable {
    let path: String
    // The mapping's address: set once in init, only read after, unmapped in deinit.
    nonisolated(unsafe) let base: UnsafeRawPointer
    let length: Int

    init(path: String, minimumLength: Int, kind: String) throws(EmbeddingError) {
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw EmbeddingError(path: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw EmbeddingError(path: path, "cannot stat: \(String(cString: strerror(errno)))")
        }
        let length = Int(info.st_size)
        guard length >= minimumLength else {
            throw EmbeddingError(path: path, "is \(length) bytes, too short for \(kind)")
        }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            throw EmbeddingError(path: path, "cannot map: \(String(cString: strerror(errno)))")
        }
        base = UnsafeRawPointer(mapped)
        self.length = length
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }
}
