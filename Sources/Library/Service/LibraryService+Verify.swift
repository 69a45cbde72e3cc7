import Foundation

/// Checking an answer's citations (`library ask --verify`, `/verify`): the verifier this library runs.
extension LibraryService {
    /// A verifier with the built-in model when it is installed, whatever embedder the library's vectors come
    /// from (the thresholds were measured with it, Benchmarks/verify.sh); else one that reads the words alone.
    public func citationVerifier() -> CitationVerifier {
        CitationVerifier(embedder: modelInstalled ? try? MiniLMEmbedder.shared(folder: modelFolder) : nil)
    }
}
