#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which of OpenBLAS's kernels runs. Debian 12's OpenBLAS (0.3.21) picks its kernels by the processor's model
/// and does not know those newer than it (Intel's Sapphire and Emerald Rapids among them): on them it falls back
/// to its oldest x86-64 kernels (Prescott, SSE3 only), and a query of thirty words took a third longer to embed
/// (Docs/performance.md). Its only way to be told is the `OPENBLAS_CORETYPE` variable, read when the library is
/// loaded; so before loading it, when the user has not set it, the kernels are named from what the processor
/// has (the kernel's CPU flags, which list only what the system has enabled): SkylakeX with AVX-512 (F, VL, BW,
/// DQ), Haswell with AVX2 and FMA, which every such processor runs. Anything else is left to OpenBLAS.
extension BLAS {
    /// The kernels to ask for on a processor with these CPU flags, nil to leave the choice to OpenBLAS.
    static func kernels(forFlags flags: Set<Substring>) -> String? {
        if ["avx512f", "avx512vl", "avx512bw", "avx512dq"].allSatisfy(flags.contains) { return "SkylakeX" }
        if flags.contains("avx2") && flags.contains("fma") { return "Haswell" }
        return nil
    }

    /// Sets `OPENBLAS_CORETYPE` for the load to come, unless it is set already (x86-64 Linux only); and
    /// `OPENBLAS_NUM_THREADS` to 1 unless set: every call is held to one thread anyway (`load`), and the threaded
    /// build otherwise starts a worker per core that waits for work spinning in `sched_yield` (11 to 21 ms of CPU
    /// in a 65 to 75 ms `library search`, no change in its wall time). Called once, under the lazy load's own
    /// once-only initialisation.
    static func chooseKernels() {
        #if os(Linux)
            setenv("OPENBLAS_NUM_THREADS", "1", 0)
        #endif
        #if os(Linux) && arch(x86_64)
            guard getenv("OPENBLAS_CORETYPE") == nil, let flags = cpuFlags(), let kernels = kernels(forFlags: flags)
            else { return }
            setenv("OPENBLAS_CORETYPE", kernels, 0)
        #endif
    }

    /// The first `flags` line of /proc/cpuinfo, split at spaces.
    static func cpuFlags() -> Set<Substring>? {
        guard let file = fopen("/proc/cpuinfo", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix("flags") else { continue }
            guard let colon = text.firstIndex(of: ":") else { return nil }
            return Set(
                text[text.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }))
        }
        return nil
    }
}
