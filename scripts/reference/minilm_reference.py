#!/usr/bin/env python3
"""Computes the reference values the MiniLM tests compare with: token ids from Hugging Face's `tokenizers`
(reading the model's own tokenizer.json) for Tests/LibraryTests/Fixtures/minilm/tokenizer-corpus.txt, and the
embedding of a few sentences by an independent NumPy forward pass of BERT (float64) over model.safetensors.

Run once, by hand, when the fixture must change:
    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install tokenizers safetensors numpy
    /tmp/ref/bin/python scripts/reference/minilm_reference.py MODEL_DIR Tests/LibraryTests/Fixtures/minilm
It is not run by the tests or CI (they need neither Python nor these packages)."""
import json, math, sys
import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

model_dir, out_dir = sys.argv[1], sys.argv[2]
tok = Tokenizer.from_file(f"{model_dir}/tokenizer.json")
tok.enable_truncation(256)
tok.no_padding()

corpus = open(f"{out_dir}/tokenizer-corpus.txt", encoding="utf-8").read().split("\n")
corpus = [line.replace("\\r\\n", "\r\n").replace("\\n", "\n").replace("\\t", "\t") for line in corpus if line != ""]
ids = [{"text": s, "ids": tok.encode(s).ids} for s in corpus]
with open(f"{out_dir}/tokenizer-ids.json", "w", encoding="utf-8") as f:
    f.write("[\n" + ",\n".join(json.dumps(entry, ensure_ascii=False) for entry in ids) + "\n]\n")

w = {k: v.astype(np.float64) for k, v in load_file(f"{model_dir}/model.safetensors").items()}

def layer_norm(x, g, b, eps=1e-12):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * g + b

def gelu(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))

def embed(text):
    t = np.array(tok.encode(text).ids)
    n = len(t)
    x = w["embeddings.word_embeddings.weight"][t] + w["embeddings.position_embeddings.weight"][:n] \
        + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    for i in range(6):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q, k, v = (lin(x, "attention.self." + s).reshape(n, 12, 32).transpose(1, 0, 2) for s in ("query", "key", "value"))
        a = q @ k.transpose(0, 2, 1) / math.sqrt(32)
        a = np.exp(a - a.max(-1, keepdims=True)); a /= a.sum(-1, keepdims=True)
        ctx = (a @ v).transpose(1, 0, 2).reshape(n, 384)
        x = layer_norm(x + lin(ctx, "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
        h = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(x + lin(h, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
    e = x.mean(0)
    return e / np.linalg.norm(e)

sentences = ["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."]
vectors = [embed(s) for s in sentences]
cos = lambda a, b: float(a @ b)
ref = {
    "how": "scripts/reference/minilm_reference.py: tokenizers' ids, NumPy float64 BERT forward, mean pooling, L2 norm",
    "sentences": sentences,
    "first16": [[round(float(x), 6) for x in v[:16]] for v in vectors],
    "cosines": {"1-2": cos(vectors[0], vectors[1]), "1-3": cos(vectors[0], vectors[2]), "2-3": cos(vectors[1], vectors[2])},
}
with open(f"{out_dir}/embedding-reference.json", "w") as f:
    json.dump(ref, f, indent=1)
print(json.dumps(ref["cosines"]))
