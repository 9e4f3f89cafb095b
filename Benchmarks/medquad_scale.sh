#!/usr/bin/env bash
# Scale benchmark: index the 16,407 MedQuAD answers (CC BY 4.0, in ../shared/eval/medquad/) as
# Markdown files in a temporary folder, with the release binary, and report wall time, chunks/s,
# database size and peak memory. Also embeds the same chunk texts raw (no store) for the
# "store must not be the bottleneck" ratio. Nothing of MedQuAD is written inside the repository.
# Usage: Benchmarks/medquad_scale.sh [limit]
set -euo pipefail
cd "$(dirname "$0")/.."
limit="${1:-0}"
src=../shared/eval/medquad/medquad_answered.jsonl
tmp=$(mktemp -d /tmp/health-medquad-XXXX)
trap 'rm -rf "$tmp"' EXIT
python3 - "$src" "$tmp/docs" "$limit" <<'PY'
import json, os, sys
src, out, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(out, exist_ok=True)
n = 0
for line in open(src):
    d = json.loads(line)
    q = d.get("question") or d.get("Question") or ""
    a = d.get("answer") or d.get("Answer") or ""
    if not a.strip(): continue
    with open(os.path.join(out, "q%05d.md" % n), "w") as f:
        f.write("# %s\n\n%s\n" % (q.strip() or "Question %d" % n, a.strip()))
    n += 1
    if limit and n >= limit: break
print("wrote %d files" % n, file=sys.stderr)
PY
swift build -c release >/dev/null
db="$tmp/index.sqlite"
/usr/bin/time -v .build/release/health index "$tmp/docs" --db "$db" 2> "$tmp/time.txt" | tail -1
grep -E "Elapsed|Maximum resident" "$tmp/time.txt"
chunks=$(python3 -c "import sqlite3;print(sqlite3.connect('$db').execute('select count(*) from chunks').fetchone()[0])")
wall=$(grep Elapsed "$tmp/time.txt" | awk '{print $NF}' | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
echo "chunks: $chunks   chunks/s: $(python3 -c "print(round($chunks/$wall,1))")   database: $(du -h "$db" | cut -f1)"
# Raw embedding of the same chunk texts, for the store-overhead ratio.
python3 -c "import sqlite3,json;r=[x[0]+': '+x[1] for x in sqlite3.connect('$db').execute('select heading_path, text from chunks')];json.dump(r,open('$tmp/chunks.json','w'))"
start=$(date +%s.%N); .build/release/health embed --json-input "$tmp/chunks.json" > /dev/null; end=$(date +%s.%N)
echo "raw embedding of the same chunks: $(python3 -c "print(round($chunks/($end-$start),1))") chunks/s"
