#!/usr/bin/env python3
"""Validate the labelled retrieval set in this directory (docs/ and queries.jsonl).

Checks: every query line parses and has the keys id, query, relevant and evidence; ids are unique; every
relevant document exists; every evidence span occurs verbatim (whitespace runs collapsed to one space) in one
of the query's relevant documents, within one line (one paragraph) and 4-20 words long; every document has
600-1500 words; there are at least 120 queries; and the
mean content-word overlap between each query and its evidence is at most 0.45. Prints a one-line summary to
stdout; on failure lists every problem on stderr and exits 1.

    python3 Benchmarks/retrieval/check.py
"""
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = HERE / "docs"
QUERIES = HERE / "queries.jsonl"
MIN_WORDS, MAX_WORDS = 600, 1500
MIN_QUERIES = 120
MIN_SPAN_WORDS, MAX_SPAN_WORDS = 4, 20
MAX_OVERLAP = 0.45
KEYS = ("id", "query", "relevant", "evidence")

# A standard English stop-word list (the NLTK list).
STOP_WORDS = set("""
i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
it its itself they them their theirs themselves what which who whom this that these those am is are was were be
been being have has had having do does did doing a an the and but if or because as until while of at by for with
about against between into through during before after above below to from up down in out on off over under again
further then once here there when where why how all any both each few more most other some such no nor not only
own same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn
haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn
""".split())


def collapse(text):
    return " ".join(text.split())


def content_words(text):
    return {w for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 3 and w not in STOP_WORDS}


def overlap(query, spans):
    words = content_words(query)
    if not words:
        return 0.0
    evidence = set().union(*(content_words(s) for s in spans)) if spans else set()
    return len(words & evidence) / len(words)


def main():
    problems = []
    documents = {}
    document_lines = {}
    if not DOCS.is_dir():
        problems.append(f"{DOCS}: missing documents directory")
    else:
        for path in sorted(DOCS.glob("*.md")):
            text = path.read_text(encoding="utf-8")
            documents[path.name] = collapse(text)
            document_lines[path.name] = [collapse(line) for line in text.splitlines()]
            count = len(text.split())
            if not MIN_WORDS <= count <= MAX_WORDS:
                problems.append(f"docs/{path.name}: {count} words, outside {MIN_WORDS}-{MAX_WORDS}")

    queries = []
    seen = {}
    if not QUERIES.is_file():
        problems.append(f"{QUERIES}: missing")
        lines = []
    else:
        lines = QUERIES.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        where = f"queries.jsonl:{number}"
        if not line.strip():
            problems.append(f"{where}: empty line")
            continue
        try:
            query = json.loads(line)
        except json.JSONDecodeError as error:
            problems.append(f"{where}: not valid JSON: {error}")
            continue
        if not isinstance(query, dict):
            problems.append(f"{where}: not a JSON object")
            continue
        missing = [key for key in KEYS if key not in query]
        if missing:
            problems.append(f"{where}: missing keys: {', '.join(missing)}")
            continue
        qid, text, relevant, evidence = (query[key] for key in KEYS)
        if not isinstance(qid, str) or not qid:
            problems.append(f"{where}: id must be a non-empty string")
        elif qid in seen:
            problems.append(f"{where}: duplicate id {qid!r} (first on line {seen[qid]})")
        else:
            seen[qid] = number
        if not isinstance(text, str) or not text.strip():
            problems.append(f"{where}: query must be a non-empty string")
            continue
        if not isinstance(relevant, list) or not relevant or not all(isinstance(r, str) for r in relevant):
            problems.append(f"{where}: relevant must be a non-empty list of file names")
            continue
        if not isinstance(evidence, list) or not evidence or not all(isinstance(e, str) for e in evidence):
            problems.append(f"{where}: evidence must be a non-empty list of strings")
            continue
        for name in relevant:
            if name not in documents:
                problems.append(f"{where}: relevant document does not exist: docs/{name}")
        texts = [documents[name] for name in relevant if name in documents]
        for span in evidence:
            words = len(span.split())
            if not MIN_SPAN_WORDS <= words <= MAX_SPAN_WORDS:
                problems.append(f"{where}: span has {words} words, outside {MIN_SPAN_WORDS}-{MAX_SPAN_WORDS}: \"{span}\"")
            if not any(collapse(span) in doc for doc in texts):
                problems.append(f"{where}: span not found in any relevant document: \"{span}\"")
            elif not any(collapse(span) in line for name in relevant for line in document_lines.get(name, [])):
                problems.append(f"{where}: span crosses a line break in its document: \"{span}\"")
        queries.append((text, relevant, evidence))

    if len(queries) < MIN_QUERIES:
        problems.append(f"queries.jsonl: {len(queries)} valid queries, need at least {MIN_QUERIES}")
    mean = sum(overlap(q, e) for q, _, e in queries) / len(queries) if queries else 0.0
    if mean > MAX_OVERLAP:
        problems.append(f"queries.jsonl: mean content-word overlap {mean:.3f} exceeds {MAX_OVERLAP}")
    multi = sum(1 for _, r, _ in queries if len(r) >= 2)

    print(f"{len(documents)} documents, {len(queries)} queries, mean query/evidence overlap {mean:.3f}, "
          f"{multi} queries need 2+ documents")
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
