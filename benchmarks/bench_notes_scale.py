"""Note search at scale: synthetic notes with clustered 1536-d vectors.

Measures, on a throwaway database:

- import throughput (``import_notes``: COPY into a staging table, upsert, HNSW and GIN upkeep);
- hybrid search latency p50 / p95 (``search(limit=10)`` end to end, for an owner holding 90 % of
  the notes and for one holding 10 %, which exercises the HNSW iterative scan);
- recall@10 of the semantic branch (HNSW) against exact search (a sequential scan);
- forced reindex throughput; and the local model's embedding rate on short notes.

Vectors come from a synthetic provider: each note belongs to one of ``--clusters`` topics, its
vector is the topic's random unit centroid plus Gaussian noise, and its text mixes the topic's
words with general words, so keyword and semantic branches both have signal::

    python -m benchmarks.bench_notes_scale [--notes 100000] [--queries 200] [--no-write]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time

import numpy as np

from benchmarks.bench_notes_common import bench_database, machine_line, write_section
from workbench.notes.embeddings import EmbeddingProvider, to_vector_literal
from workbench.notes.maintenance import reindex
from workbench.notes.search import SearchSettings, search
from workbench.notes.store import NoteInput, import_notes

DIM = 1536
SYLLABLES = [
    "ka",
    "ri",
    "to",
    "ne",
    "mu",
    "sa",
    "lo",
    "vi",
    "de",
    "pa",
    "ko",
    "ra",
    "ti",
    "me",
    "nu",
    "ha",
    "be",
    "go",
    "fu",
    "zi",
]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


class ClusteredProvider(EmbeddingProvider):
    """Synthetic 1536-d embeddings: topic centroid + noise, deterministic per text."""

    model_id = "synthetic/clustered-1536"
    dimension = DIM
    batch_size = 512

    def __init__(
        self, topic_of: dict[str, int], clusters: int, noise: float, seed: int = 7
    ) -> None:
        rng = np.random.default_rng(seed)
        centroids = rng.standard_normal((clusters, DIM)).astype(np.float32)
        self.centroids = centroids / np.linalg.norm(centroids, axis=1, keepdims=True)
        self.topic_of = topic_of
        self.noise = noise

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            words = text.split()
            topic = next((self.topic_of[w] for w in words if w in self.topic_of), 0)
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            noise = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
            vec = self.centroids[topic] + self.noise * noise / np.sqrt(DIM)
            out[i] = vec / np.linalg.norm(vec)
        return out


def make_corpus(n: int, clusters: int, seed: int = 11):
    """A synthetic corpus of ``n`` notes in ``clusters`` topics, deterministic for a seed.

    Each topic has 30 words of its own (ending in ``x``, ``q`` or ``z``, so they never collide
    with the 4,000 general words); a note takes three topic words as its title and 25 to 60 body
    words, each a topic word with probability 0.35, else a general word.

    Parameters
    ----------
    n : int
        Number of notes.
    clusters : int
        Number of topics.
    seed : int
        Seed of the random generator.

    Returns
    -------
    notes : list of NoteInput
        The notes, external ids ``s0000000``, ``s0000001``, ...
    topics : list of list of str
        The words of each topic.
    general : list of str
        The general words.
    topic_of : dict of str to int
        Topic index of each topic word (what :class:`ClusteredProvider` reads).
    """
    rng = random.Random(seed)
    general = list(dict.fromkeys(_word(rng) for _ in range(6000)))[:4000]
    topics = []
    used = set(general)
    for _ in range(clusters):
        words = []
        while len(words) < 30:
            w = _word(rng) + rng.choice(["x", "q", "z"])
            if w not in used:
                used.add(w)
                words.append(w)
        topics.append(words)
    topic_of = {w: c for c, words in enumerate(topics) for w in words}
    notes = []
    for i in range(n):
        c = rng.randrange(clusters)
        title = " ".join(rng.sample(topics[c], 3))
        body = [
            rng.choice(topics[c]) if rng.random() < 0.35 else rng.choice(general)
            for _ in range(rng.randint(25, 60))
        ]
        notes.append(NoteInput(title, " ".join(body), f"s{i:07d}"))
    return notes, topics, general, topic_of


def make_queries(q: int, topics, general, seed: int = 13) -> list[str]:
    """``q`` search queries: two to four words of one random topic and one to three general words.

    Parameters
    ----------
    q : int
        Number of queries.
    topics : list of list of str
        The topic words of :func:`make_corpus`.
    general : list of str
        The general words of :func:`make_corpus`.
    seed : int
        Seed of the random generator.

    Returns
    -------
    list of str
        The queries, words shuffled.
    """
    rng = random.Random(seed)
    out = []
    for _ in range(q):
        c = rng.randrange(len(topics))
        words = rng.sample(topics[c], rng.randint(2, 4)) + rng.sample(general, rng.randint(1, 3))
        rng.shuffle(words)
        out.append(" ".join(words))
    return out


def _pct(values: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(values) * 1000, p))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and (unless ``--no-write``) update the docs.

    Parameters
    ----------
    argv : list of str, optional
        Command-line arguments (default ``sys.argv[1:]``); ``--help`` lists them.

    Returns
    -------
    int
        Exit status: 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--clusters", type=int, default=200)
    parser.add_argument(
        "--noise", type=float, default=1.0, help="noise norm relative to the centroid"
    )
    parser.add_argument(
        "--recall-queries", type=int, default=100, help="checked against exact search"
    )
    parser.add_argument("--no-reindex", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)

    notes, topics, general, topic_of = make_corpus(args.notes, args.clusters)
    provider = ClusteredProvider(topic_of, args.clusters, args.noise)
    queries = make_queries(args.queries, topics, general)
    big, small = notes[: int(0.9 * len(notes))], notes[int(0.9 * len(notes)) :]
    results: dict[str, float] = {}
    with bench_database() as conn:
        conn.execute("SET maintenance_work_mem = '1GB'")
        t0 = time.perf_counter()
        import_notes(conn, "bench", big, provider=provider, progress=True, rebuild_index=True)
        results["import_bulk_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        import_notes(conn, "team2", small, provider=provider, progress=True)
        results["import_incr_s"] = time.perf_counter() - t0
        results["import_s"] = results["import_bulk_s"] + results["import_incr_s"]
        # no manual VACUUM: import_notes settles the tables itself (part of the import time)
        results["term_rows"] = conn.execute('SELECT count(*) FROM "NoteTerm"').fetchone()[0]
        heap, index = conn.execute(
            "SELECT pg_table_size('\"NoteTerm\"'), pg_indexes_size('\"NoteTerm\"')"
        ).fetchone()
        results["term_heap_mb"], results["term_index_mb"] = heap / 2**20, index / 2**20
        vectors = conn.execute("SELECT pg_total_relation_size('\"NoteEmbedding\"')").fetchone()[0]
        results["embedding_mb"] = vectors / 2**20
        print(f"imported {len(notes)} notes in {results['import_s']:.1f} s", flush=True)

        results["shared_buffers"] = conn.execute("SHOW shared_buffers").fetchone()[0]
        settings = SearchSettings()
        for owner in ("bench", "team2"):
            for mode in ("hybrid", "keyword", "semantic"):
                for q in queries[:10]:  # warm-up
                    search(conn, q, owner=owner, mode=mode, provider=provider, settings=settings)
                took = []
                for q in queries:
                    t = time.perf_counter()
                    search(conn, q, owner=owner, mode=mode, provider=provider, settings=settings)
                    took.append(time.perf_counter() - t)
                results[f"{owner}_{mode}_p50"] = _pct(took, 50)
                results[f"{owner}_{mode}_p95"] = _pct(took, 95)
                print(
                    owner,
                    mode,
                    f"p50 {results[f'{owner}_{mode}_p50']:.1f} ms p95 {results[f'{owner}_{mode}_p95']:.1f} ms",
                    flush=True,
                )

        for owner in ("bench", "team2"):
            recalls = []
            for q in queries[: args.recall_queries]:
                approx = {
                    h.id
                    for h in search(
                        conn, q, owner=owner, mode="semantic", limit=10, provider=provider
                    )
                }
                vec = to_vector_literal(provider.embed_one(q))
                with conn.transaction():
                    conn.execute("SET LOCAL enable_indexscan = off")
                    conn.execute("SET LOCAL enable_bitmapscan = off")
                    exact = {
                        r[0]
                        for r in conn.execute(
                            'SELECT e."noteId" FROM "NoteEmbedding" e JOIN "Note" n ON n.id = e."noteId"'
                            ' WHERE n."ownerId" = %s AND e.model = %s ORDER BY e.embedding <=> %s::vector, e."noteId" LIMIT 10',
                            (owner, provider.model_id, vec),
                        )
                    }
                recalls.append(len(approx & exact) / len(exact))
            results[f"{owner}_recall10"] = float(np.mean(recalls))
            print(owner, "semantic recall@10", results[f"{owner}_recall10"], flush=True)

        if not args.no_reindex:
            marks: list[float] = []

            def progress(done: int, total: int) -> None:
                marks.append(time.perf_counter())
                if done == total or len(marks) % 20 == 0:
                    print(f"reindex {done}/{total}", flush=True)

            t0 = time.perf_counter()
            r = reindex(conn, provider=provider, batch_size=500, force=True, progress=progress)
            end = time.perf_counter()
            results["reindex_s"] = marks[-1] - t0  # the batches
            results["reindex_upkeep_s"] = end - marks[-1]  # its VACUUM (ANALYZE) of the embeddings
            results["reindex_n"] = r.embedded

    from workbench.notes.embeddings import LocalMiniLMProvider

    minilm = LocalMiniLMProvider()
    sample = [f"{n.title}. {' '.join(n.content.split()[:25])}" for n in notes[:512]]
    t0 = time.perf_counter()
    minilm.embed(sample)
    minilm_rate = len(sample) / (time.perf_counter() - t0)

    n = len(notes)
    rows = [
        "| owner (share of notes) | mode | p50 ms | p95 ms |",
        "|---|---|---:|---:|",
    ]
    for owner, share in (("bench", "90 %"), ("team2", "10 %")):
        for mode in ("hybrid", "keyword", "semantic"):
            rows.append(
                f"| {owner} ({share}) | {mode} | {results[f'{owner}_{mode}_p50']:.1f} | {results[f'{owner}_{mode}_p95']:.1f} |"
            )
    reindex_line = (
        f"forced reindex {results['reindex_n'] / results['reindex_s']:.0f} notes/s "
        f"({results['reindex_n']} notes, batches of 500, synthetic provider), then "
        f"{results['reindex_upkeep_s']:.0f} s of the reindex's own VACUUM (ANALYZE) of the "
        "embeddings (the HNSW graph repaired for every replaced row)"
        if "reindex_s" in results
        else "reindex not run"
    )
    section = f"""## Note search at scale (`benchmarks/bench_notes_scale.py`)

{machine_line()}. {n} synthetic notes (25-60 words, {args.clusters} topics, 1536-d vectors = topic centroid + noise),
{len(queries)} queries of 3-7 words, limit 10, default settings ({settings.semantic_candidates} candidates per branch, ef_search {max(settings.ef_search_min, settings.semantic_candidates)}, iterative scan);
embedded server with shared_buffers = {results["shared_buffers"]}.
Latency is `search()` end to end from Python over the Unix socket (query vector from the synthetic provider).

{chr(10).join(rows)}

- Semantic branch recall@10 against exact search ({min(args.recall_queries, len(queries))} queries): {results["bench_recall10"]:.3f} (owner with 90 %), {results["team2_recall10"]:.3f} (owner with 10 %, iterative scan).
- Import (binary COPY + upsert + GIN and BM25 statistics upkeep by triggers + the import's own
  VACUUM ANALYZE, synthetic provider): {len(big) / results["import_bulk_s"]:.0f} notes/s for the first {len(big)} with
  `rebuild_index=True` (one HNSW build), {len(small) / results["import_incr_s"]:.0f} notes/s for the next {len(small)} inserted into the index.
  No manual maintenance step ran before the timings. BM25 statistics: {results["term_rows"]} postings in `"NoteTerm"`, {results["term_heap_mb"]:.0f} MB of table and
  {results["term_index_mb"]:.0f} MB of covering index (the embeddings with their HNSW index: {results["embedding_mb"]:.0f} MB).
- {reindex_line}.
- Local model all-MiniLM-L6-v2 int8 on short notes (about 30 words): {minilm_rate:.0f} texts/s; it bounds real import and reindex rates.

Goals: hybrid p50 <= 15 ms, semantic recall@10 >= 0.95.
"""
    print(section)
    if not args.no_write:
        write_section("notes-scale", section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
