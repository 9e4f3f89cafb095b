#!/usr/bin/env python3
"""Assembles cases.jsonl from scenarios.jsonl (gold levels) and messages/*.jsonl (the writers'
messages), split by scenario into a dev half (tune on it) and a test half (only score it).
The split is fixed: within each level, scenarios sorted by SHA-1 of their id, first half dev."""
import hashlib, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
scen = [json.loads(l) for l in open(os.path.join(here, 'scenarios.jsonl')) if l.strip()]
level = {s['id']: s['level'] for s in scen}
split = {}
for lv in sorted(set(level.values())):
    ids = sorted((i for i in level if level[i] == lv), key=lambda i: hashlib.sha1(i.encode()).hexdigest())
    for n, i in enumerate(ids):
        split[i] = 'dev' if n < (len(ids) + 1) // 2 else 'test'
def assemble(folder, target, level=level, split=split):
  out, seen = [], set()
  for name in sorted(os.listdir(os.path.join(here, folder))):
    for line in open(os.path.join(here, folder, name)):
        if not line.strip():
            continue
        m = json.loads(line)
        text = m['text'].strip()
        if m['scenario'] not in level or text in seen:
            continue
        seen.add(text)
        out.append({'text': text, 'triage': level[m['scenario']], 'scenario': m['scenario'], 'voice': m['voice'], 'split': split[m['scenario']]})
  with open(os.path.join(here, target), 'w') as f:
    for c in out:
        f.write(json.dumps(c, ensure_ascii=False) + '\n')
  from collections import Counter
  print(target, len(out), 'messages;', Counter((c['split'], c['triage']) for c in out))
  per = Counter(c['scenario'] for c in out)
  print('scenarios', len(per), 'min messages per scenario', min(per.values()), 'voices', sorted(Counter(c['voice'] for c in out).items()))

# The first batch: tune on its dev half, score its test half.
assemble('messages', 'cases.jsonl')
# A fresh batch from four new writers (fresh/), written after the first batch had been tuned on:
# it confirms that a change made on the dev half holds on words nobody has tuned on. Same split.
if os.path.isdir(os.path.join(here, 'fresh')):
    assemble('fresh', 'fresh-cases.jsonl')
# A second dev batch (dev2/), written blind by two more writers (a frightened bystander texting; an
# understated person who plays things down) for the dev half's 50 emergency scenarios only, so the
# test half stays untouched: more words to tune emergencies on.
if os.path.isdir(os.path.join(here, 'dev2')):
    assemble('dev2', 'dev2-cases.jsonl')
# A third dev batch (dev3/), for new scenarios: 136 written blind from triage references by a
# helper who read only scenarios.jsonl (to avoid repeating it), then four writers (a family member
# at night, someone who has searched the internet, a Spanish speaker writing English, a person who
# leads with a practical question) wrote one message each. Every dev3 scenario is new, so all of it
# is dev: tune on it; the test half stays untouched.
if os.path.isdir(os.path.join(here, 'dev3')):
    scen3 = [json.loads(l) for l in open(os.path.join(here, 'dev3', 'scenarios.jsonl')) if l.strip()]
    level3 = {s['id']: s['level'] for s in scen3}
    assert not set(level3) & set(level), 'dev3 scenario ids must be new'
    writers = os.path.join('dev3', 'messages')
    assemble(writers, 'dev3-cases.jsonl', level3, {i: 'dev' for i in level3})
# A fourth dev batch (dev4/), written the same way as dev3 on 2026-11-24: 140 new scenarios by a
# blind helper who read only the earlier scenario lists (to avoid repeating them), then four
# writers (someone with health anxiety, a formal older adult, a Polish speaker writing English, a
# busy person texting) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev4')):
    scen4 = [json.loads(l) for l in open(os.path.join(here, 'dev4', 'scenarios.jsonl')) if l.strip()]
    level4 = {s['id']: s['level'] for s in scen4}
    assert not set(level4) & (set(level) | set(level3)), 'dev4 scenario ids must be new'
    assemble(os.path.join('dev4', 'messages'), 'dev4-cases.jsonl', level4, {i: 'dev' for i in level4})
# A fifth dev batch (dev5/), written 2026-11-24 (session 11): 150 new scenarios by a blind helper
# who read no earlier list and was asked for the everyday mix of chief complaints that people
# bring to NHS 111, urgent care and the ED (the first list's kind of scenario, not rarer and rarer
# ones), then four writers (an American adult, a teenager, a South Asian or West African English
# speaker, a stressed person writing run-on sentences) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev5')):
    scen5 = [json.loads(l) for l in open(os.path.join(here, 'dev5', 'scenarios.jsonl')) if l.strip()]
    level5 = {s['id']: s['level'] for s in scen5}
    assert not set(level5) & (set(level) | set(level3) | set(level4)), 'dev5 scenario ids must be new'
    assemble(os.path.join('dev5', 'messages'), 'dev5-cases.jsonl', level5, {i: 'dev' for i in level5})
# A sixth dev batch (dev6/), written 2026-11-24 (session 12) to find which mechanisms lose
# emergencies on the test half without reading it: 130 new scenarios by a blind helper who read
# no file at all, by chief complaint as the first list was (64 emergency, 26 urgent, 18 routine,
# 14 self-care, 8 not-understood), many emergencies said alongside reassuring details, then six
# writers in the first batch's six voices (terse, rambling, anxious parent or carer, older adult,
# non-native English, texting) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev6')):
    scen6 = [json.loads(l) for l in open(os.path.join(here, 'dev6', 'scenarios.jsonl')) if l.strip()]
    level6 = {s['id']: s['level'] for s in scen6}
    assert not set(level6) & (set(level) | set(level3) | set(level4) | set(level5)), 'dev6 scenario ids must be new'
    assemble(os.path.join('dev6', 'messages'), 'dev6-cases.jsonl', level6, {i: 'dev' for i in level6})
# A seventh dev batch (dev7/), written 2026-11-24 (session 13) for breadth: 150 new scenarios by a
# blind helper who read no file, one or more for each of the Manchester Triage System's
# presentational charts (70 emergency, 32 urgent, 20 routine, 18 self-care, 10 not-understood),
# emergencies often told with minimising details, mild ones sometimes with alarming words; then
# six writers in the first batch's six voices wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev7')):
    scen7 = [json.loads(l) for l in open(os.path.join(here, 'dev7', 'scenarios.jsonl')) if l.strip()]
    level7 = {s['id']: s['level'] for s in scen7}
    assert not set(level7) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6)), 'dev7 scenario ids must be new'
    assemble(os.path.join('dev7', 'messages'), 'dev7-cases.jsonl', level7, {i: 'dev' for i in level7})
# An eighth dev batch (dev8/), written 2026-11-24 (session 14) to look for emergencies that are easy
# to miss, since every dev set had none left lower than urgent while the test half had 11: 120 new
# scenarios by a blind helper who read no file (80 emergency told with minimising or atypical
# details or only through a consequence, 20 urgent, 10 routine, 10 self-care), then four writers
# (a terse night-shift texter, a formal retired person, a rambling worried parent or carer, a
# person writing English as a second language) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev8')):
    scen8 = [json.loads(l) for l in open(os.path.join(here, 'dev8', 'scenarios.jsonl')) if l.strip()]
    level8 = {s['id']: s['level'] for s in scen8}
    assert not set(level8) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7)), 'dev8 scenario ids must be new'
    assemble(os.path.join('dev8', 'messages'), 'dev8-cases.jsonl', level8, {i: 'dev' for i in level8})
# A ninth dev batch (dev9/), written 2026-11-25 (session 15) with another scenario writer and four
# new voices, to look again for what loses emergencies: 120 new scenarios by a blind helper who read
# no file (70 emergency whose serious part is hidden in how people write — buried in a long message,
# explained away, told through what the person could not do, or seen by an unusual witness; 20
# urgent; 30 routine or self-care that sound alarming but are benign on the details), then four
# writers (dictated into voice typing, a person with dyslexia, a young American texting, a careful
# timeline with clock times) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev9')):
    scen9 = [json.loads(l) for l in open(os.path.join(here, 'dev9', 'scenarios.jsonl')) if l.strip()]
    level9 = {s['id']: s['level'] for s in scen9}
    assert not set(level9) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8)), 'dev9 scenario ids must be new'
    assemble(os.path.join('dev9', 'messages'), 'dev9-cases.jsonl', level9, {i: 'dev' for i in level9})
# A tenth dev batch (dev10/), written 2026-11-25 (session 15) in the first batch's six voices, to
# look once more for what the test half loses without reading it: 100 new scenarios by a blind
# helper who read no file, by chief complaint as the first list was (60 ordinary emergencies told
# the way ordinary people tell them, the decisive detail often a number, a reading, what was taken
# or what someone else saw; 20 urgent; 10 routine; 10 self-care), then six writers (terse,
# rambling, anxious, older adult, English as a second language, texting) wrote one message each.
# All dev.
if os.path.isdir(os.path.join(here, 'dev10')):
    scen10 = [json.loads(l) for l in open(os.path.join(here, 'dev10', 'scenarios.jsonl')) if l.strip()]
    level10 = {s['id']: s['level'] for s in scen10}
    assert not set(level10) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9)), 'dev10 scenario ids must be new'
    assemble(os.path.join('dev10', 'messages'), 'dev10-cases.jsonl', level10, {i: 'dev' for i in level10})
# An eleventh dev batch (dev11/), written 2026-11-25 (session 16) the same way as dev10 with another
# scenario writer, since dev10 was the first batch to move the test half: 100 new scenarios by a
# blind helper who read no file, by chief complaint across body systems and populations (55
# ordinary emergencies, the decisive detail often a number, a reading, what was taken, what the
# person cannot do or what someone else saw; 20 urgent; 13 routine; 12 self-care chosen from
# everyday complaints and minor injuries that can sound worrying), then six writers in the first
# batch's six voices wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev11')):
    scen11 = [json.loads(l) for l in open(os.path.join(here, 'dev11', 'scenarios.jsonl')) if l.strip()]
    level11 = {s['id']: s['level'] for s in scen11}
    assert not set(level11) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10)), 'dev11 scenario ids must be new'
    assemble(os.path.join('dev11', 'messages'), 'dev11-cases.jsonl', level11, {i: 'dev' for i in level11})
# A twelfth dev batch (dev12/), written 2026-11-25 (session 16) the same way with a third scenario
# writer, asked for what a nurse-advice line hears on an ordinary day: 100 new scenarios by a blind
# helper who read no file (50 common emergencies told plainly, often by someone hoping it is minor or
# asking a practical question; 20 urgent; 15 routine; 15 self-care from everyday complaints a worried
# person might overrate), then six writers in the first batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev12')):
    scen12 = [json.loads(l) for l in open(os.path.join(here, 'dev12', 'scenarios.jsonl')) if l.strip()]
    level12 = {s['id']: s['level'] for s in scen12}
    assert not set(level12) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11)), 'dev12 scenario ids must be new'
    assemble(os.path.join('dev12', 'messages'), 'dev12-cases.jsonl', level12, {i: 'dev' for i in level12})

# A thirteenth dev batch (dev13/), written 2026-11-25 (session 17) by a fourth scenario writer that
# read no file, asked for "a pharmacy counter and a GP reception desk on a busy Monday": 100 new
# scenarios (35 emergency told plainly or played down; 15 urgent; 20 routine; 20 self-care told in
# alarming words, "agony", "numb", "chest", blood from a trivial cause; 10 not-understood: greetings,
# a test, an emoji, another language, off-topic), then six writers in the first batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev13')):
    scen13 = [json.loads(l) for l in open(os.path.join(here, 'dev13', 'scenarios.jsonl')) if l.strip()]
    level13 = {s['id']: s['level'] for s in scen13}
    assert not set(level13) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12)), 'dev13 scenario ids must be new'
    assemble(os.path.join('dev13', 'messages'), 'dev13-cases.jsonl', level13, {i: 'dev' for i in level13})

# A fourteenth dev batch (dev14/), written 2026-11-25 (session 18) by a fifth scenario writer that
# read no file, asked for "an overnight telephone nurse-advice line, 11 p.m. to 6 a.m.": 100 new
# scenarios (45 emergency across ages, many told hesitantly, atypically or with a preferred benign
# explanation — atypical heart attack, sepsis as new confusion, a baby's bulging soft spot, shoulder-tip
# pain in early pregnancy, a casual overdose, stroke signs that came and went; 15 urgent; 15 routine;
# 15 self-care told in alarming night-time words; 10 not-understood of ten different kinds), then six
# writers in the first batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev14')):
    scen14 = [json.loads(l) for l in open(os.path.join(here, 'dev14', 'scenarios.jsonl')) if l.strip()]
    level14 = {s['id']: s['level'] for s in scen14}
    assert not set(level14) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13)), 'dev14 scenario ids must be new'
    assemble(os.path.join('dev14', 'messages'), 'dev14-cases.jsonl', level14, {i: 'dev' for i in level14})

# A fifteenth dev batch (dev15/), written 2026-11-25 (session 19) by a sixth scenario writer that
# read no file, asked for the first list's kind of scenario — by chief complaint across every body
# system and population, from mainstream triage references — set in an ordinary working day (at
# work, the school gate, after sport, on a trip; written by the person or someone with them): 100
# new scenarios (50 emergency, many whose decisive detail is one item said in passing — a number, a
# medicine, what the person cannot do, what someone else noticed — a third told by someone who
# thinks it minor or asks a practical question; 20 urgent; 15 routine; 10 self-care, some in
# alarming words; 5 not-understood of five kinds), then six writers in the first batch's six
# voices. All dev.
if os.path.isdir(os.path.join(here, 'dev15')):
    scen15 = [json.loads(l) for l in open(os.path.join(here, 'dev15', 'scenarios.jsonl')) if l.strip()]
    level15 = {s['id']: s['level'] for s in scen15}
    assert not set(level15) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14)), 'dev15 scenario ids must be new'
    assemble(os.path.join('dev15', 'messages'), 'dev15-cases.jsonl', level15, {i: 'dev' for i in level15})

# A sixteenth dev batch (dev16/), written 2026-11-25 (session 19) by a seventh scenario writer that
# read no file, asked for people whose long-term condition, medicine or situation changes what a
# symptom means (insulin, blood thinners, steroids and adrenal insufficiency, immune suppression,
# sickle cell, heart failure, devices, dialysis, epilepsy, a shunt, recent surgery, pregnancy and
# the weeks after birth, frailty, learning disability told by a carer, psychiatric medicines,
# dependence, travel): 100 new scenarios (50 emergency, often decided by one detail said in
# passing; 20 urgent; 15 routine and 10 self-care about the same kinds of people, so the condition
# alone makes nothing serious; 5 not-understood), then six writers in the first batch's six voices.
# All dev.
if os.path.isdir(os.path.join(here, 'dev16')):
    scen16 = [json.loads(l) for l in open(os.path.join(here, 'dev16', 'scenarios.jsonl')) if l.strip()]
    level16 = {s['id']: s['level'] for s in scen16}
    assert not set(level16) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14) | set(level15)), 'dev16 scenario ids must be new'
    assemble(os.path.join('dev16', 'messages'), 'dev16-cases.jsonl', level16, {i: 'dev' for i in level16})

# A seventeenth dev batch (dev17/), written 2026-11-25 (session 19) for breadth of emergency
# coverage: an eighth scenario writer that read no file went through public guidance (the NHS
# condition pages' "call 999" and "go to A&E" sections, NHS 111, CDC and MedlinePlus emergency
# lists, RCPCH traffic lights, pregnancy pages) body system by body system and wrote 120 scenarios:
# 90 emergencies, each a different call-999 criterion, the less obvious ones as well as the common;
# 15 urgent; 15 benign counterparts (13 self-care, 2 routine). Four writers (terse, rambling,
# English as a second language, texting) wrote one message each. All dev.
if os.path.isdir(os.path.join(here, 'dev17')):
    scen17 = [json.loads(l) for l in open(os.path.join(here, 'dev17', 'scenarios.jsonl')) if l.strip()]
    level17 = {s['id']: s['level'] for s in scen17}
    assert not set(level17) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14) | set(level15) | set(level16)), 'dev17 scenario ids must be new'
    assemble(os.path.join('dev17', 'messages'), 'dev17-cases.jsonl', level17, {i: 'dev' for i in level17})

# An eighteenth dev batch (dev18/), written 2026-11-25 (session 20) for atypical and understated
# presentations: a ninth scenario writer that read no file went body system by body system (heart,
# lungs and airway, brain, eyes, ENT and teeth, bowel, liver and pancreas, kidneys, genitals,
# pregnancy, skin, bones, blood, hormones, mental health, poisoning, environment, injuries) and wrote
# 100 scenarios of serious problems told without the textbook words (a heart attack as tiredness
# and a heavy jaw, an effect described instead of the symptom, numbers said in passing, playing it
# down): 50 emergency, 20 urgent, 15 routine and 10 self-care (several with a frightening word but
# benign facts), 5 not-understood. Six writers in the first batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev18')):
    scen18 = [json.loads(l) for l in open(os.path.join(here, 'dev18', 'scenarios.jsonl')) if l.strip()]
    level18 = {s['id']: s['level'] for s in scen18}
    assert not set(level18) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14) | set(level15) | set(level16) | set(level17)), 'dev18 scenario ids must be new'
    assemble(os.path.join('dev18', 'messages'), 'dev18-cases.jsonl', level18, {i: 'dev' for i in level18})

# A nineteenth dev batch (dev19/), written 2026-11-25 (session 21) by a tenth scenario writer that
# read no file, asked to go through the telephone-triage protocol titles (adult and paediatric, with
# pregnancy and older adults: one protocol per chief complaint, as nurse advice lines use them) so the
# list covers many chief complaints rather than rare conditions, each with the disposition that
# protocol's questions reach: 100 scenarios (50 emergency told the way ordinary people tell them, the
# decisive detail often one item said in passing, a third by someone who thinks it minor or asks a
# practical question; 20 urgent; 15 routine; 10 self-care, some in alarming words; 5 not-understood of
# five kinds), then six writers in the first batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev19')):
    scen19 = [json.loads(l) for l in open(os.path.join(here, 'dev19', 'scenarios.jsonl')) if l.strip()]
    level19 = {s['id']: s['level'] for s in scen19}
    assert not set(level19) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14) | set(level15) | set(level16) | set(level17) | set(level18)), 'dev19 scenario ids must be new'
    assemble(os.path.join('dev19', 'messages'), 'dev19-cases.jsonl', level19, {i: 'dev' for i in level19})

# A twentieth dev batch (dev20/), written 2026-11-25 (session 21) by an eleventh scenario writer that
# read no file, asked for emergencies that look like a common minor complaint (a cold, a tummy bug, a
# hangover, a headache, back pain, a sprain, a rash, period pain, indigestion, tiredness, a cough,
# earache …): one detail said in passing makes each an emergency, told by someone who thinks it is the
# minor complaint and asks for a home remedy; 100 scenarios (50 emergency, 10 urgent, 15 routine and
# 20 self-care benign twins told the same way, 5 not-understood), then six writers in the first
# batch's six voices. All dev.
if os.path.isdir(os.path.join(here, 'dev20')):
    scen20 = [json.loads(l) for l in open(os.path.join(here, 'dev20', 'scenarios.jsonl')) if l.strip()]
    level20 = {s['id']: s['level'] for s in scen20}
    assert not set(level20) & (set(level) | set(level3) | set(level4) | set(level5) | set(level6) | set(level7) | set(level8) | set(level9) | set(level10) | set(level11) | set(level12) | set(level13) | set(level14) | set(level15) | set(level16) | set(level17) | set(level18) | set(level19)), 'dev20 scenario ids must be new'
    assemble(os.path.join('dev20', 'messages'), 'dev20-cases.jsonl', level20, {i: 'dev' for i in level20})
