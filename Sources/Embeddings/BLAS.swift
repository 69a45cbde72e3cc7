import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// OpenBLAS's two products the encoder and the vector search use, `cblas_sgemm` and `cblas_sgemv`, loaded with
/// `dlopen` the first time they are needed rather than linked. Linked, OpenBLAS (with libgfortran and
/// libquadmath) is loaded and relocated by every process, about 2.7 ms of each command's start-up, though only
/// embedding and semantic search use it (Docs/performance.md).
struct BLAS: Sendable {
    typealias SGEMM =
        @convention(c) (
            Int32, Int32, Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32, UnsafePointer<Float>?, Int32,
            Float, UnsafeMutablePointer<Float>?, Int32
        ) -> Void
    typealias SGEMV =
        @convention(c) (
            Int32, Int32, Int32, Int32, Float, UnsafePointer<Float>?, Int32, UnsafePointer<Float>?, Int32, Float,
            UnsafeMutablePointer<Float>?, Int32
        ) -> Void

    // CBLAS's enumerations (cblas.h): the values every implementation uses.
    static let rowMajor: Int32 = 101
    static let noTranspose: Int32 = 111
    static let transpose: Int32 = 112

    typealias GetConfig = @convention(c) () -> UnsafeMutablePointer<CChar>?
    typealias GetParallel = @convention(c) () -> Int32
    typealias SetThreads = @convention(c) (Int32) -> Void

    let sgemmFunction: SGEMM
    let sgemvFunction: SGEMV
    // OpenBLAS's own extensions, absent from other CBLAS builds.
    var getConfig: GetConfig?
    var getParallel: GetParallel?
    var setThreads: SetThreads?
    /// Calls go one at a time, process-wide (`callLock`), unless the build is OpenBLAS's threaded one (or not
    /// OpenBLAS): OpenBLAS built without threads (Debian's serial build) takes its work buffers from a table it
    /// does not lock, so two calls at once can be given the same buffer and compute wrong numbers, silently
    /// (OpenMathLib/OpenBLAS#2126): here 0.1 to 5 % of 32 × 32 products made from two threads at once, none of
    /// 160,000 from eight threads with the threaded build, which locks that table and is held to one thread per call.
    var serializesCalls = false
    static let callLock = Mutex(())

    /// Where OpenBLAS is looked for, in order. On Linux, Debian's threaded build first, held to one thread per
    /// call at load (the encoder's parallelism is two encoders side by side, whose calls that build may take
    /// at once); its serial build next, whose calls are then made one at a time; then the loader's search path.
    /// On macOS, Homebrew's OpenBLAS, then the system's Accelerate, whose CBLAS has the same calls.
    #if os(macOS)
        static let candidates: [String] = [
            "/opt/homebrew/opt/openblas/lib/libopenblas.dylib",
            "/usr/local/opt/openblas/lib/libopenblas.dylib",
            "/System/Library/Frameworks/Accelerate.framework/Accelerate",
        ]
    #else
        static let candidates: [String] = [
            "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/openblas-pthread/libopenblas.so.0",
            "/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0",
            "/usr/lib/aarch64-linux-gnu/openblas-serial/libopenblas.so.0",
            "libopenblas.so.0",
            "libopenblas.so",
        ]
    #endif

    /// Loaded once per process, on first use.
    static let shared: Result<BLAS, EmbeddingError> = Result { () throws(EmbeddingError) in try load(from: candidates) }

    /// The first candidate that opens and has both functions.
    static func load(from candidates: [String]) throws(EmbeddingError) -> BLAS {
        chooseKernels()
        let found = SharedLibrary.first(of: candidates, lacking: "no cblas_sgemm or cblas_sgemv") { library -> BLAS? in
            guard let sgemm = library.symbol("cblas_sgemm", as: SGEMM.self),
                let sgemv = library.symbol("cblas_sgemv", as: SGEMV.self)
            else { return nil }
            var blas = BLAS(sgemmFunction: sgemm, sgemvFunction: sgemv)
            blas.getConfig = library.symbol("openblas_get_config", as: GetConfig.self)
            blas.getParallel = library.symbol("openblas_get_parallel", as: GetParallel.self)
            blas.setThreads = library.symbol("openblas_set_num_threads", as: SetThreads.self)
            // 1: the threaded (pthreads) build; 0, serial, and 2, OpenMP, whose calls from threads of ours are
            // not known to be safe at once. A CBLAS without OpenBLAS's extensions (Accelerate) is.
            blas.serializesCalls = blas.getParallel.map { $0() != 1 } ?? false
            if !blas.serializesCalls { blas.setThreads?(1) }
            return blas
        }
        switch found {
        case .success(let blas): return blas
        case .failure(let passedOver):
            throw EmbeddingError("OpenBLAS could not be loaded\(passedOver.listed); \(installHint)")
        }
    }

    #if os(macOS)
        static let installHint = "install it with `brew install openblas`"
    #else
        static let installHint = "install it (Debian: apt install libopenblas0-pthread)"
    #endif

    /// The loaded functions; the reason when OpenBLAS is missing.
    static func loaded() throws(EmbeddingError) -> BLAS { try shared.get() }

    /// The build (version, kernel, and whether it is the threaded one), for benchmarks.
    var configuration: String {
        guard let text = getConfig?() else { return "unknown CBLAS" }
        let parallel = getParallel.map { $0() == 0 ? " (serial)" : " (threaded)" } ?? ""
        return String(cString: text) + parallel
    }

    /// c = alpha · a · op(b) + beta · c, row-major; `a` is never transposed.
    func sgemm(
        transposeB: Bool, m: Int, n: Int, k: Int, alpha: Float, a: UnsafePointer<Float>?, lda: Int,
        b: UnsafePointer<Float>?, ldb: Int, beta: Float, c: UnsafeMutablePointer<Float>?, ldc: Int
    ) {
        serialized {
            sgemmFunction(
                Self.rowMajor, Self.noTranspose, transposeB ? Self.transpose : Self.noTranspose, Int32(m), Int32(n),
                Int32(k),
                alpha, a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
        }
    }

    /// y = matrix · x for a row-major `rows` × `columns` matrix.
    func sgemv(
        rows: Int, columns: Int, matrix: UnsafePointer<Float>, x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>
    ) {
        serialized {
            sgemvFunction(
                Self.rowMajor, Self.noTranspose, Int32(rows), Int32(columns), 1, matrix, Int32(columns), x, 1, 0, y, 1)
        }
    }

    /// Runs `call` alone among this process's calls when the build needs it (`serializesCalls`).
    private func serialized(_ call: () -> Void) {
        if serializesCalls {
            Self.callLock.withLock { _ in call() }
        } else {
            call()
        }
    }
}
