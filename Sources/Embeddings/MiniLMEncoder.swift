import Foundation

/// The BERT forward pass of all-MiniLM-L6-v2 over a batch of token sequences padded to one length, with
/// mean pooling over each sequence's own tokens and L2 normalisation, in float32. The dense products go
/// through OpenBLAS's `cblas_sgemm` (loaded by `BLAS`) over the whole batch at once (rows = sequences × length); attention is
/// computed per sequence and head over that sequence's real tokens only, so padding costs no attention
/// and changes no result. Buffers are per call: encoders on several threads share only the weights.
struct MiniLMEncoder: Sendable {
    let weights: MiniLMWeights
    let blas: BLAS

    /// One unit vector of 384 values per sequence (each sequence holds [CLS] … [SEP]).
    func encode(_ sequences: [[Int32]]) -> [[Float]] {
        guard let length = sequences.map(\.count).max(), length > 0 else { return sequences.map { _ in [] } }
        let h = MiniLMWeights.hidden
        let f = MiniLMWeights.feedForward
        let rows = sequences.count * length
        var x = [Float](repeating: 0, count: rows * h)
        var qkv = [Float](repeating: 0, count: rows * 3 * h)
        var q = [Float](repeating: 0, count: rows * h)
        var context = [Float](repeating: 0, count: rows * h)
        var wide = [Float](repeating: 0, count: rows * f)
        var scores = [Float](repeating: 0, count: length * length)
        embed(sequences, length: length, into: &x)
        for (layer, fused) in zip(weights.layers, weights.fused) {
            fused.weight.withUnsafeBufferPointer { weight in
                fused.bias.withUnsafeBufferPointer { bias in
                    linear(x, rows: rows, inputs: h, weight, bias, into: &qkv)
                }
            }
            for (index, sequence) in sequences.enumerated() {
                attend(qkv, first: index * length, count: sequence.count, scores: &scores, into: &context)
            }
            // x = norm(x + context · Wo + bo)
            linear(context, rows: rows, inputs: h, layer.attentionOut, layer.attentionOutBias, into: &q, adding: x)
            Self.layerNorm(&q, rows: rows, layer.attentionNorm, layer.attentionNormBias)
            swap(&x, &q)
            linear(x, rows: rows, inputs: h, layer.intermediate, layer.intermediateBias, into: &wide)
            Self.gelu(&wide)
            linear(wide, rows: rows, inputs: f, layer.output, layer.outputBias, into: &q, adding: x)
            Self.layerNorm(&q, rows: rows, layer.outputNorm, layer.outputNormBias)
            swap(&x, &q)
        }
        return sequences.enumerated().map { index, sequence in
            Self.meanPool(x, first: index * length, count: sequence.count)
        }
    }

    /// Word + position + type embeddings, normalised; padded rows stay zero.
    func embed(_ sequences: [[Int32]], length: Int, into x: inout [Float]) {
        let h = MiniLMWeights.hidden
        x.withUnsafeMutableBufferPointer { out in
            for (index, sequence) in sequences.enumerated() {
                for (position, token) in sequence.enumerated() {
                    let row = (index * length + position) * h
                    let word = Int(token) * h
                    let place = position * h
                    for j in 0..<h {
                        out[row + j] = weights.words[word + j] + weights.positions[place + j] + weights.types[j]
                    }
                }
            }
        }
        for (index, sequence) in sequences.enumerated() {
            x.withUnsafeMutableBufferPointer { out in
                Self.layerNorm(
                    out.baseAddress! + index * length * h, rows: sequence.count, weights.embeddingNorm,
                    weights.embeddingNormBias)
            }
        }
    }

    /// out = input · Wᵀ + bias (+ residual), W as PyTorch keeps it: [outputs, inputs], row-major.
    func linear(
        _ input: [Float], rows: Int, inputs: Int, _ weight: UnsafeBufferPointer<Float>,
        _ bias: UnsafeBufferPointer<Float>,
        into out: inout [Float], adding residual: [Float]? = nil
    ) {
        let outputs = bias.count
        out.withUnsafeMutableBufferPointer { o in
            let o = o.baseAddress!
            let b = bias.baseAddress!
            if let residual {
                residual.withUnsafeBufferPointer { residual in
                    let r = residual.baseAddress!
                    for row in 0..<rows {
                        let offset = row * outputs
                        for j in 0..<outputs { o[offset + j] = r[offset + j] + b[j] }
                    }
                }
            } else {
                for row in 0..<rows { (o + row * outputs).update(from: b, count: outputs) }
            }
            input.withUnsafeBufferPointer { i in
                blas.sgemm(
                    transposeB: true, m: rows, n: outputs, k: inputs, alpha: 1, a: i.baseAddress, lda: inputs,
                    b: weight.baseAddress, ldb: inputs, beta: 1, c: o, ldc: outputs)
            }
        }
    }
}
