/// all-MiniLM-L6-v2's tensors, read in place from `model.safetensors` (BERT: 6 layers, hidden size 384,
/// 12 heads of 32, feed-forward 1536, vocabulary 30522, 512 positions). Each name and shape is checked
/// on loading, so a different model in the folder is an error that names the tensor.
struct MiniLMWeights: @unchecked Sendable {
    // Pointers into the read-only mapping that `file` keeps alive; never written.
    struct Layer {
        var query, queryBias, key, keyBias, value, valueBias: UnsafeBufferPointer<Float>
        var attentionOut, attentionOutBias, attentionNorm, attentionNormBias: UnsafeBufferPointer<Float>
        var intermediate, intermediateBias, output, outputBias, outputNorm, outputNormBias: UnsafeBufferPointer<Float>
    }

    static let hidden = 384
    static let heads = 12
    static let headSize = 32
    static let feedForward = 1536
    static let vocabularySize = 30522
    static let positions = 512
    static let layerCount = 6

    let file: SafetensorsFile
    let words, positions, types, embeddingNorm, embeddingNormBias: UnsafeBufferPointer<Float>
    let layers: [Layer]
    /// Each layer's query, key and value weights stacked into one [1152, 384] matrix (and their biases), so
    /// the three projections are one product: the input is packed once instead of three times.
    let fused: [(weight: [Float], bias: [Float])]

    init(file: SafetensorsFile) throws(EmbeddingError) {
        let h = Self.hidden
        let f = Self.feedForward
        self.file = file
        words = try file.floats("embeddings.word_embeddings.weight", shape: [Self.vocabularySize, h])
        positions = try file.floats("embeddings.position_embeddings.weight", shape: [Self.positions, h])
        types = try file.floats("embeddings.token_type_embeddings.weight", shape: [2, h])
        embeddingNorm = try file.floats("embeddings.LayerNorm.weight", shape: [h])
        embeddingNormBias = try file.floats("embeddings.LayerNorm.bias", shape: [h])
        var layers: [Layer] = []
        for index in 0..<Self.layerCount {
            let p = "encoder.layer.\(index)."
            func t(_ name: String, _ shape: [Int]) throws(EmbeddingError) -> UnsafeBufferPointer<Float> {
                try file.floats(p + name, shape: shape)
            }
            layers.append(
                Layer(
                    query: try t("attention.self.query.weight", [h, h]),
                    queryBias: try t("attention.self.query.bias", [h]),
                    key: try t("attention.self.key.weight", [h, h]), keyBias: try t("attention.self.key.bias", [h]),
                    value: try t("attention.self.value.weight", [h, h]),
                    valueBias: try t("attention.self.value.bias", [h]),
                    attentionOut: try t("attention.output.dense.weight", [h, h]),
                    attentionOutBias: try t("attention.output.dense.bias", [h]),
                    attentionNorm: try t("attention.output.LayerNorm.weight", [h]),
                    attentionNormBias: try t("attention.output.LayerNorm.bias", [h]),
                    intermediate: try t("intermediate.dense.weight", [f, h]),
                    intermediateBias: try t("intermediate.dense.bias", [f]),
                    output: try t("output.dense.weight", [h, f]), outputBias: try t("output.dense.bias", [h]),
                    outputNorm: try t("output.LayerNorm.weight", [h]),
                    outputNormBias: try t("output.LayerNorm.bias", [h])))
        }
        self.layers = layers
        fused = layers.map { layer in
            var weight: [Float] = []
            weight.reserveCapacity(3 * h * h)
            var bias: [Float] = []
            bias.reserveCapacity(3 * h)
            for part in [layer.query, layer.key, layer.value] { weight.append(contentsOf: part) }
            for part in [layer.queryBias, layer.keyBias, layer.valueBias] { bias.append(contentsOf: part) }
            return (weight, bias)
        }
    }
}
