#!/usr/bin/env python3
"""Lays out one labelled set for Benchmarks/ranking.sh: OUT/docs (the documents) and OUT/queries.jsonl, each line
{"id", "query", "relevant": ["file", or "file#page" for a page of a PDF]}.

  prepare.py project OUT        the project's own set (Benchmarks/retrieval), linked in place
  prepare.py cisi OUT           the public CISI collection, read from ../shared/data/cisi (skipped when absent):
                                each abstract one text file (title and abstract; the .X citations left out)
  prepare.py multilingual OUT   real documents in three languages: the Debian FAQ (English, German and French PDFs)
                                and the Debian Reference (German and French PDFs), from Debian's own packages
                                (apt-get download, versions pinned, kept in OUT/../debs); the queries in
                                Benchmarks/ranking/multilingual.jsonl are judged by page: a FAQ question by the pages
                                its section covers in its language's FAQ, a rare word by every page it is on.

Exits 3 when a set's source is absent (ranking.sh then skips the set and says so).
"""
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def write_queries(out, queries):
    with open(os.path.join(out, "queries.jsonl"), "w", encoding="utf-8") as f:
        for q in queries:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")


def project(out):
    docs = os.path.join(ROOT, "Benchmarks", "retrieval", "docs")
    os.symlink(docs, os.path.join(out, "docs"))
    queries = []
    with open(os.path.join(ROOT, "Benchmarks", "retrieval", "queries.jsonl"), encoding="utf-8") as f:
        for line in f:
            q = json.loads(line)
            queries.append({"id": q["id"], "query": q["query"], "relevant": q["relevant"]})
    write_queries(out, queries)


def cisi_records(path):
    """CISI's records: {id: {field: text}}, fields .T .A .W .X .B, a field running until the next dot line."""
    records, current, field = {}, None, None
    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^\.I\s+(\d+)", line)
            if m:
                current = records.setdefault(int(m.group(1)), {})
                field = None
            elif re.match(r"^\.[TAWXB]\s*$", line):
                field = line[:2]
                if current is not None:
                    current.setdefault(field, [])
            elif current is not None and field is not None:
                current[field].append(line)
    return {i: {k: "\n".join(v).strip() for k, v in r.items()} for i, r in records.items()}


def cisi(out):
    source = os.path.join(ROOT, "..", "shared", "data", "cisi")
    if not os.path.exists(os.path.join(source, "CISI.ALL")):
        print(f"cisi: {source} is absent", file=sys.stderr)
        sys.exit(3)
    docs = os.path.join(out, "docs")
    os.makedirs(docs)
    for number, record in cisi_records(os.path.join(source, "CISI.ALL")).items():
        with open(os.path.join(docs, f"cisi-{number:04d}.txt"), "w", encoding="utf-8") as f:
            f.write(record.get(".T", "") + "\n\n" + record.get(".W", "") + "\n")
    relevant = {}
    with open(os.path.join(source, "CISI.REL"), encoding="latin-1") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 2:
                relevant.setdefault(int(fields[0]), []).append(f"cisi-{int(fields[1]):04d}.txt")
    queries = []
    for number, record in sorted(cisi_records(os.path.join(source, "CISI.QRY")).items()):
        if number in relevant:
            text = " ".join(record.get(".W", "").split())
            queries.append({"id": f"cisi-q{number}", "query": text, "relevant": sorted(set(relevant[number]))})
    write_queries(out, queries)


PACKAGES = [
    ("debian-faq", "11.1", {"usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz": "debian-faq.en.pdf"}),
    ("debian-faq-de", "11.1", {"usr/share/doc/debian/FAQ/debian-faq.de.pdf.gz": "debian-faq.de.pdf"}),
    ("debian-faq-fr", "11.1", {"usr/share/doc/debian/FAQ/debian-faq.fr.pdf.gz": "debian-faq.fr.pdf"}),
    ("debian-reference-de", "2.100", {"usr/share/debian-reference/debian-reference.de.pdf": "debian-reference.de.pdf"}),
    ("debian-reference-fr", "2.100", {"usr/share/debian-reference/debian-reference.fr.pdf": "debian-reference.fr.pdf"}),
]


def fetch(debs):
    """The packages' .deb files in `debs`, downloaded once."""
    os.makedirs(debs, exist_ok=True)
    for name, version, _ in PACKAGES:
        if not glob.glob(os.path.join(debs, f"{name}_{version}_*.deb")):
            try:
                subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=debs, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            except (subprocess.CalledProcessError, FileNotFoundError) as error:
                print(f"multilingual: apt-get download {name}={version} failed: {error}", file=sys.stderr)
                sys.exit(3)


def pages_of(pdf):
    """Each page's text (pdftotext, one page at a time), from page 1; a table of contents' page is None."""
    count = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", pdf], capture_output=True, text=True,
                                                             check=True).stdout).group(1))
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, check=True).stdout.decode(
        "utf-8", "replace")
    pages = text.split("\f")[:count]
    return [None if ". . . . ." in page else page for page in pages]


def multilingual(out):
    debs = os.path.join(os.path.dirname(os.path.abspath(out)), "debs")
    fetch(debs)
    docs = os.path.join(out, "docs")
    os.makedirs(docs)
    unpacked = os.path.join(out, "unpacked")
    for name, version, files in PACKAGES:
        deb = glob.glob(os.path.join(debs, f"{name}_{version}_*.deb"))[0]
        subprocess.run(["dpkg-deb", "-x", deb, unpacked], check=True)
        for inside, target in files.items():
            source = os.path.join(unpacked, inside)
            opener = gzip.open if source.endswith(".gz") else open
            with opener(source, "rb") as src, open(os.path.join(docs, target), "wb") as dst:
                shutil.copyfileobj(src, dst)
    shutil.rmtree(unpacked)
    pages = {name: pages_of(os.path.join(docs, name)) for name in sorted(os.listdir(docs))}
    queries = []
    with open(os.path.join(HERE, "multilingual.jsonl"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            q = json.loads(line)
            relevant = []
            if "section" in q:
                doc, section = q["section"]["doc"], q["section"]["number"]
                heading = re.compile(r"^\s*" + re.escape(section) + r"\s+\S", re.M)
                major, minor = section.split(".")
                following = re.compile(r"^\s*(" + re.escape(f"{major}.{int(minor) + 1}") + "|"
                                       + re.escape(f"{int(major) + 1}") + r")\s+\S", re.M)
                start = next((i for i, p in enumerate(pages[doc]) if p and heading.search(p)), None)
                if start is None:
                    sys.exit(f"multilingual.jsonl:{number}: section {section} not found in {doc}")
                end = next((i for i in range(start, len(pages[doc])) if pages[doc][i]
                            and following.search(pages[doc][i][heading.search(pages[doc][i]).end():]
                                                 if i == start else pages[doc][i])), start)
                relevant = [f"{doc}#{p + 1}" for p in range(start, end + 1)]
            else:
                word = re.compile(r"(?<!\w)" + re.escape(q["word"]) + r"(?!\w)", re.I)
                relevant = [f"{doc}#{i + 1}" for doc, texts in pages.items() for i, p in enumerate(texts)
                            if p and word.search(p)]
                if not relevant:
                    sys.exit(f"multilingual.jsonl:{number}: {q['word']!r} is on no page")
            queries.append({"id": q["id"], "query": q["query"], "relevant": relevant})
    write_queries(out, queries)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("project", "cisi", "multilingual"):
        sys.exit(__doc__)
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    {"project": project, "cisi": cisi, "multilingual": multilingual}[sys.argv[1]](out)
