import Foundation
import ResponsesAPI
import Testing

@testable import Embeddings

/// The encoder's parallelism is two encoders side by side, each calling OpenBLAS on its own thread. Debian's
/// serial OpenBLAS is not safe for that (its work buffers are handed out from a table it does not lock: now
/// and then two calls compute with the same buffer, and a product comes out wrong, silently), so the build
/// loaded must be one that is, or its calls must go one at a time. Products made on two threads at once must
/// equal, bit for bit, the same product made alone.
@Suite("OpenBLAS called from two threads at once")
struct BLASConcurrencyTests {
    /// Every build the encoder would load that is installed here (setup.sh installs Debian's threaded and
    /// serial builds), each on its own, as the loader takes it; the first is the one `BLAS.loaded` gives.
    static let installed = BLAS.candidates.filter { $0.hasPrefix("/") && FileManager.default.fileExists(atPath: $0) }

    @Test func someBuildIsInstalled() {
        #expect(!Self.installed.isEmpty, "no OpenBLAS at \(BLAS.candidates)")
    }

    @Test(arguments: installed)
    func productsMadeSideBySideEqualTheProductMadeAlone(path: String) async throws {
        let blas = try BLAS.load(from: [path])
        // Small products (as attention's over a short chunk) are where the serial build's race shows most:
        // there, 0.1 to 5 % of them came out wrong from two threads, none from one.
        let size = 32
        let a = (0..<(size * size)).map { Float(sin(Double($0))) }
        let b = (0..<(size * size)).map { Float(cos(Double($0) * 0.7)) }
        let product: @Sendable () -> [Float] = {
            var c = [Float](repeating: 0, count: size * size)
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    c.withUnsafeMutableBufferPointer { c in
                        blas.sgemm(
                            transposeB: false, m: size, n: size, k: size, alpha: 1, a: a.baseAddress, lda: size,
                            b: b.baseAddress, ldb: size, beta: 0, c: c.baseAddress, ldc: size)
                    }
                }
            }
            return c
        }
        let alone = product()
        // Threads of their own (the concurrency pool may have only two, or one), 10,000 products each.
        let threads = 4
        let each = 10_000
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await OwnThread.run { (0..<each).reduce(0) { count, _ in count + (product() == alone ? 0 : 1) } }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(
            wrong == 0,
            "\(wrong) of \(threads * each) products made side by side differ from the product made alone (\(path): \(blas.configuration))"
        )
    }
}
