#!/usr/bin/env python3
"""faiss IndexFlatIP on the exact vectors `health bench search` generated (raw float32 files).
Usage: faiss_peer.py DATA.f32 QUERIES.f32 DIM THREADS   → one JSON line {single_ms, batch_ms}."""
import json, statistics, sys, time
import numpy as np, faiss
data_path, query_path, dim, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
faiss.omp_set_num_threads(threads)
xb = np.fromfile(data_path, dtype=np.float32).reshape(-1, dim)
xq = np.fromfile(query_path, dtype=np.float32).reshape(-1, dim)
index = faiss.IndexFlatIP(dim); index.add(xb)
index.search(xq[:1], 10)
single = []
for q in xq:
    t = time.perf_counter(); index.search(q[None, :], 10); single.append((time.perf_counter() - t) * 1000)
t = time.perf_counter(); index.search(xq, 10); batch = (time.perf_counter() - t) * 1000 / len(xq)
print(json.dumps({"engine": "faiss-IndexFlatIP", "single_ms": statistics.median(single), "batch_ms": batch}))
