import Foundation

/// The encoder's element-wise steps: attention for one sequence, layer normalisation, GELU, pooling.
extension MiniLMEncoder {
    /// Self-attention of one sequence's `count` real tokens (rows `first` ..< `first + count` of `qkv`, whose
    /// rows hold the query, key and value projections side by side), all heads.
    func attend(_ qkv: [Float], first: Int, count: Int, scores: inout [Float], into context: inout [Float]) {
        let h = MiniLMWeights.hidden
        let size = MiniLMWeights.headSize
        let stride = 3 * h
        let scale = 1 / Float(size).squareRoot()
        qkv.withUnsafeBufferPointer { qkv in
            scores.withUnsafeMutableBufferPointer { s in
                context.withUnsafeMutableBufferPointer { c in
                    for head in 0..<MiniLMWeights.heads {
                        let q = qkv.baseAddress! + first * stride + head * size
                        blas.sgemm(
                            transposeB: true, m: count, n: count, k: size, alpha: scale, a: q, lda: stride,
                            b: q + h, ldb: stride, beta: 0, c: s.baseAddress, ldc: count)
                        for row in 0..<count { Self.softmax(s.baseAddress! + row * count, count: count) }
                        blas.sgemm(
                            transposeB: false, m: count, n: size, k: count, alpha: 1, a: s.baseAddress, lda: count,
                            b: q + 2 * h, ldb: stride, beta: 0, c: c.baseAddress! + first * h + head * size, ldc: h)
                    }
                }
            }
        }
    }

    /// A row's softmax in place. The exponentials are computed eight at a time (`exp8`): with `expf` per
    /// value they took a quarter of a 256-token embedding (256² per head and layer).
    static func softmax(_ row: UnsafeMutablePointer<Float>, count: Int) {
        let vectors = count / 8
        // Rows start anywhere (row × count): unaligned loads and stores.
        let raw = UnsafeMutableRawPointer(row)
        var largests = SIMD8<Float>(repeating: -.infinity)
        for i in 0..<vectors {
            let v = raw.loadUnaligned(fromByteOffset: i * 32, as: SIMD8<Float>.self)
            largests.replace(with: v, where: v .> largests)
        }
        var largest = largests.max()
        for j in (vectors * 8)..<count { largest = max(largest, row[j]) }
        var sums = SIMD8<Float>()
        for i in 0..<vectors {
            let e = exp8(raw.loadUnaligned(fromByteOffset: i * 32, as: SIMD8<Float>.self) - largest)
            raw.storeBytes(of: e, toByteOffset: i * 32, as: SIMD8<Float>.self)
            sums += e
        }
        var sum = sums.sum()
        for j in (vectors * 8)..<count {
            let e = expf(row[j] - largest)
            row[j] = e
            sum += e
        }
        let inverse = 1 / sum
        for i in 0..<vectors {
            let v = raw.loadUnaligned(fromByteOffset: i * 32, as: SIMD8<Float>.self) * inverse
            raw.storeBytes(of: v, toByteOffset: i * 32, as: SIMD8<Float>.self)
        }
        for j in (vectors * 8)..<count { row[j] *= inverse }
    }

    /// eˣ for x ≤ 0 (the softmax's shifted scores), eight at a time: x = n·ln 2 + r, |r| ≤ ln 2 / 2, eʳ by
    /// Cephes' polynomial, 2ⁿ built in the exponent bits. Relative error about 1e-7; below -87 it gives 0.
    @inline(__always)
    static func exp8(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let underflow = x .< -87
        let x = x.replacing(with: -87, where: underflow)
        // Rounded to the nearest integer by adding 1.5·2²³: the sum's low mantissa bits are n itself (the
        // generic SIMD rounding and Int32 conversion are element by element, slower than expf).
        let shifted = x * 1.44269504088896341 + 12_582_912
        let n = shifted - 12_582_912
        let r = x - n * 0.693359375 + n * 2.12194440e-4
        var p = r * 1.9875691500e-4 + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        let y = p * r * r + r + 1
        let bits = (unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23
        let result = y * unsafeBitCast(bits, to: SIMD8<Float>.self)
        return result.replacing(with: 0, where: underflow)
    }

    static func layerNorm(
        _ x: inout [Float], rows: Int, _ gamma: UnsafeBufferPointer<Float>, _ beta: UnsafeBufferPointer<Float>
    ) {
        x.withUnsafeMutableBufferPointer { layerNorm($0.baseAddress!, rows: rows, gamma, beta) }
    }

    /// Each row scaled to mean 0 and variance 1 (ε = 1e-12, as BERT's), then by γ and β.
    static func layerNorm(
        _ x: UnsafeMutablePointer<Float>, rows: Int, _ gamma: UnsafeBufferPointer<Float>,
        _ beta: UnsafeBufferPointer<Float>
    ) {
        let n = gamma.count
        for r in 0..<rows {
            let row = x + r * n
            var sum: Float = 0
            for j in 0..<n { sum += row[j] }
            let mean = sum / Float(n)
            var squares: Float = 0
            for j in 0..<n {
                let d = row[j] - mean
                squares += d * d
            }
            let inverse = 1 / (squares / Float(n) + 1e-12).squareRoot()
            for j in 0..<n { row[j] = (row[j] - mean) * inverse * gamma[j] + beta[j] }
        }
    }

    /// GELU with the error function (BERT's "gelu", not the tanh approximation), eight values at a time.
    /// erf is Eigen's rational approximation over [-4, 4] (erf is ±1 within float precision beyond):
    /// within 2e-7 of the exact value, and a tenth of the cost of calling `erff` for each value, which took
    /// 10% of an embedding (perf, Benchmarks/library.sh).
    static func gelu(_ x: inout [Float]) {
        x.withUnsafeMutableBufferPointer { x in
            let vectors = x.count / 8
            let raw = UnsafeMutableRawPointer(x.baseAddress!)
            for i in 0..<vectors {
                let value = gelu(raw.loadUnaligned(fromByteOffset: i * 32, as: SIMD8<Float>.self))
                raw.storeBytes(of: value, toByteOffset: i * 32, as: SIMD8<Float>.self)
            }
            for i in (vectors * 8)..<x.count { x[i] = 0.5 * x[i] * (1 + erff(x[i] * 0.70710678118654752)) }
        }
    }

    @inline(__always)
    static func gelu(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // Clamped with masks: SIMD's clamp is a generic call per vector here.
        var z = x * 0.70710678118654752
        z.replace(with: 4, where: z .> 4)
        z.replace(with: -4, where: z .< -4)
        let z2 = z * z
        var p = z2 * -2.72614225801306e-10 + 2.77068142495902e-08
        p = p * z2 + -2.10102402082508e-06
        p = p * z2 + -5.69250639462346e-05
        p = p * z2 + -7.34990630326855e-04
        p = p * z2 + -2.95459980854025e-03
        p = p * z2 + -1.60960333262415e-02
        var q = z2 * -1.45660718464996e-05 + -2.13374055278905e-04
        q = q * z2 + -1.68282697438203e-03
        q = q * z2 + -7.37332916720468e-03
        q = q * z2 + -1.42647390514189e-02
        let erf = z * p / q
        return 0.5 * x * (1 + erf)
    }

    /// The mean of a sequence's token vectors, scaled to length 1.
    static func meanPool(_ x: [Float], first: Int, count: Int) -> [Float] {
        let h = MiniLMWeights.hidden
        var pooled = [Float](repeating: 0, count: h)
        for r in first..<(first + count) {
            for j in 0..<h { pooled[j] += x[r * h + j] }
        }
        var norm: Float = 0
        for j in 0..<h { norm += pooled[j] * pooled[j] }
        let scale = norm > 0 ? 1 / norm.squareRoot() : 0
        for j in 0..<h { pooled[j] *= scale }
        return pooled
    }
}
