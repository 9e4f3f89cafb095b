#!/usr/bin/env python3
"""Restore the lay wordings that the v1 → v2 conversion dropped: each v1 symptom line lists its
variants as "a / b / c"; the v2 file keeps a name and a few `lay:` items. Every v1 variant missing
from the matching v2 finding (same weight, most shared words) is added to its `lay:` list."""
import os, re, sys, json
V1, V2 = sys.argv[1], sys.argv[2]
STOP = set("a an the of in on or and to with my is are be at for from after when".split())
def words(s): return {w for w in re.findall(r"[a-z']+", s.lower()) if w not in STOP}
def v1_symptoms(text):
    out = []
    for m in re.finditer(r"^\s*- \{name: (.*), weight: (\w+)\}\s*$", text, re.M):
        out.append(([v.strip() for v in m.group(1).split(" / ") if v.strip()], m.group(2)))
    return out
def q(item):
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 '\-\.]*", item) and item.lower() not in ("yes","no","true","false","null","on","off"):
        return item
    return json.dumps(item)
def parse_flow(s):
    # a flow list of plain or double-quoted items
    items, cur, inq, i = [], "", False, 0
    s = s.strip()[1:-1]
    while i < len(s):
        c = s[i]
        if inq:
            if c == "\\": cur += s[i:i+2]; i += 2; continue
            if c == '"': inq = False
            cur += c
        elif c == '"': inq = True; cur += c
        elif c == ",": items.append(cur.strip()); cur = ""
        else: cur += c
        i += 1
    if cur.strip(): items.append(cur.strip())
    return [json.loads(x) if x.startswith('"') else x.strip("'") for x in items]
changed = added = 0
for f in sorted(os.listdir(V2)):
    p1 = os.path.join(V1, f)
    if not os.path.exists(p1): continue
    v1 = v1_symptoms(open(p1).read())
    lines = open(os.path.join(V2, f)).read().split("\n")
    # v2 findings: (index of name line, index of lay line or None, weight, name)
    finds = []
    i = 0
    while i < len(lines):
        m = re.match(r"^  - name: (.*)$", lines[i])
        if m and i + 1 < len(lines) and re.match(r"^    weight: ", lines[i+1]):
            name = m.group(1).strip().strip('"'); weight = lines[i+1].split(":",1)[1].strip()
            lay = i + 2 if i + 2 < len(lines) and lines[i+2].startswith("    lay: [") else None
            finds.append([i, lay, weight, name])
        i += 1
    if not finds: continue
    file_added = 0
    for variants, weight in v1:
        best, score = None, 0
        for fd in finds:
            have = [fd[3]] + (parse_flow(lines[fd[1]].split(":",1)[1]) if fd[1] is not None else [])
            # Mean over the v1 variants of their best match, and a finding of the same weight first.
            s = sum(max(len(words(v) & words(h)) / max(1, len(words(v) | words(h))) for h in have) for v in variants) / len(variants)
            s += 0.3 if fd[2] == weight else 0
            if s > score: best, score = fd, s
        if best is None or score < 0.45: continue
        have = [best[3]] + (parse_flow(lines[best[1]].split(":",1)[1]) if best[1] is not None else [])
        lower = {h.lower() for h in have}
        missing = [v for v in variants if v.lower() not in lower]
        if not missing: continue
        lay = (parse_flow(lines[best[1]].split(":",1)[1]) if best[1] is not None else []) + missing
        line = "    lay: [" + ", ".join(q(x) for x in lay) + "]"
        if best[1] is None:
            lines.insert(best[0] + 2, line)
            for fd in finds:
                if fd[0] > best[0]: fd[0] += 1; fd[1] = fd[1] + 1 if fd[1] is not None else None
            best[1] = best[0] + 2
        else:
            lines[best[1]] = line
        file_added += len(missing)
    if file_added:
        open(os.path.join(V2, f), "w").write("\n".join(lines)); changed += 1; added += file_added
print(f"{changed} files, {added} lay wordings restored")
