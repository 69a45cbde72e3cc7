import Foundation
import Testing

@testable import Embeddings

/// OpenBLAS is opened at run time (`BLAS`), not linked: found where Debian puts it, computing what CBLAS
/// computes, and missing with an error that names what was tried.
@Suite("OpenBLAS loaded when first needed")
struct BLASLoadingTests {
    @Test func theInstalledOpenBLASIsFoundAndMultiplies() throws {
        let blas = try BLAS.loaded()
        // [1 2 3; 4 5 6] · [1 0; 0 1; 1 1] = [4 5; 10 11]
        let a: [Float] = [1, 2, 3, 4, 5, 6]
        let b: [Float] = [1, 0, 0, 1, 1, 1]
        var c = [Float](repeating: 0, count: 4)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer { c in
                    blas.sgemm(
                        transposeB: false, m: 2, n: 2, k: 3, alpha: 1, a: a.baseAddress, lda: 3,
                        b: b.baseAddress, ldb: 2, beta: 0, c: c.baseAddress, ldc: 2)
                }
            }
        }
        #expect(c == [4, 5, 10, 11])
        // The same product with b given transposed ([2, 3], row-major), as the encoder's linear layers do.
        let bt: [Float] = [1, 0, 1, 0, 1, 1]
        a.withUnsafeBufferPointer { a in
            bt.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer { c in
                    blas.sgemm(
                        transposeB: true, m: 2, n: 2, k: 3, alpha: 2, a: a.baseAddress, lda: 3,
                        b: b.baseAddress, ldb: 3, beta: 0, c: c.baseAddress, ldc: 2)
                }
            }
        }
        #expect(c == [8, 10, 20, 22])
        #if os(Linux)
            #expect(blas.configuration.contains("OpenBLAS"))
        #endif
    }

    @Test func theKernelsAreNamedFromTheProcessorsFlags() {
        #expect(
            BLAS.kernels(forFlags: ["fpu", "sse3", "avx", "avx2", "fma", "avx512f", "avx512vl", "avx512bw", "avx512dq"])
                == "SkylakeX")
        #expect(
            BLAS.kernels(forFlags: ["sse3", "avx", "avx2", "fma", "avx512f"]) == "Haswell", "AVX-512 without VL, BW, DQ"
        )
        #expect(BLAS.kernels(forFlags: ["sse3", "avx", "avx2"]) == nil, "AVX2 without FMA: OpenBLAS decides")
        #expect(BLAS.kernels(forFlags: ["sse3", "ssse3"]) == nil)
    }

    /// Debian 12's OpenBLAS does not know this machine kind's processor (Emerald Rapids) and would run its SSE3
    /// kernels on it; the load names the kernels the processor has.
    @Test func theLoadedOpenBLASRunsKernelsThisProcessorHas() throws {
        #if os(Linux) && arch(x86_64)
            let flags = try #require(BLAS.cpuFlags())
            guard let kernels = BLAS.kernels(forFlags: flags) else { return }
            let blas = try BLAS.loaded()
            // Another value than ours can only be the user's own choice, which the load leaves alone.
            if let set = ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"], set != kernels { return }
            #expect(blas.configuration.contains(" \(kernels) "), "\(blas.configuration)")
            #expect(!blas.configuration.contains("Prescott"), "\(blas.configuration)")
        #endif
    }

    @Test func aMissingLibraryNamesThePathsTried() {
        let error = #expect(throws: EmbeddingError.self) {
            try BLAS.load(from: ["/nonexistent/openblas/libopenblas.so.0", "libno-such-blas.so.9"])
        }
        #expect(error?.description.contains("/nonexistent/openblas/libopenblas.so.0") == true)
        #expect(error?.description.contains("libno-such-blas.so.9") == true)
        #expect(error?.description.contains("OpenBLAS could not be loaded") == true)
    }

    #if os(Linux)
        @Test func aLibraryWithoutCBLASIsPassedOver() throws {
            // libm opens but has no cblas_sgemm: the next candidate is used.
            let blas = try BLAS.load(from: ["libm.so.6"] + BLAS.candidates)
            #expect(blas.getConfig != nil)
            let error = #expect(throws: EmbeddingError.self) { try BLAS.load(from: ["libm.so.6"]) }
            #expect(error?.description.contains("libm.so.6: no cblas_sgemm or cblas_sgemv") == true)
        }
    #endif

    @Test func theVectorSearchGivesTheSameScoresWithoutOpenBLAS() throws {
        let rows = 37
        let dimensions = 384
        var generator = SystemRandomNumberGenerator()
        let matrix = (0..<(rows * dimensions)).map { _ in Float.random(in: -1...1, using: &generator) }
        let query = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &generator) }
        let blas = try BLAS.loaded()
        let (fast, plain) = matrix.withUnsafeBufferPointer { m in
            (
                VectorMatrix.products(m.baseAddress!, rows: rows, dimensions: dimensions, query: query, blas: blas),
                VectorMatrix.products(m.baseAddress!, rows: rows, dimensions: dimensions, query: query, blas: nil)
            )
        }
        #expect(fast.count == rows && plain.count == rows)
        for (x, y) in zip(fast, plain) { #expect(abs(x - y) < 1e-3) }
    }
}
