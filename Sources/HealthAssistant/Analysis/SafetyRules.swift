import Foundation

/// Built-in red-flag rules that do not depend on which conditions retrieval found: the safety net
/// that keeps an emergency from ever being under-triaged. Each rule lists regular expressions
/// that must each match some NON-negated clause (so "no chest pain" never fires the chest-pain
/// rule), plus optional checks on age, vitals and history. Suicide and self-harm words fire even
/// when negated: any mention gets crisis help.
struct SafetyRule: Sendable {
    var flag: String
    var level: TriageLevel
    /// Every pattern must match at least one positive clause.
    var all: [String]
    var crisis = false
    var ignoresNegation = false
    var extra: (@Sendable (Findings) -> Bool)? = nil
}

enum SafetyRules {
    static let suicide = #"suicid|kill(ing)? my ?self|end(ing)? (it all|my life|things)|end(ing)? it\b(?! with)|(can'?t|cannot) go on\b(?! (holiday|vacation|the |a |my |his |her |with |for |long ))|wanna die|(life|living)( is|'s| s)? not worth|(life|living) (isn'?t|is not|ain'?t) worth|not worth living|cutting (my|his|her) (arms?|wrists?|legs?|thighs?|skin)|(take|taking|took) an overdose|never wake up|take my (own )?life|wants?(ed)? to die|wanted to die|better off without me|saving (up )?(my |the )?(tablets|pills|meds|medication)|on purpose|intent(ion)? to (hang|kill|harm|hurt|overdose|end)|(kill|harm|hurt|hang|cut|burn)(ing)? (him|her|them)sel(f|ves)|burn(ed|t|ing)? myself|(shoot|shooting) my ?self|gun .{0,30}(die|myself|end)|(die|myself|end).{0,40}gun|wish i (was|were) dead|(don'?t|do not) want to (live|be alive|wake up|be here)|self[- ]?harm|hurt(ing)? my ?self|cut(ting)? my ?self|harm(ing)? my ?self|better off dead|no reason to live|jump off|hang(ing)? my ?self|so (that )?i (don'?t|do not|won'?t|never) wake up|(take|taking|swallow|swallowing) all (of )?my (insulin|pills|tablets|medication|meds)|not (be )?around (any ?more|tomorrow)|say(ing)? goodbye to everyone"#
    static let chestPain = #"chest\b.{0,30}(hurt|ach(e|es|ing)\b)|(pains?|hurts?|hurting|aching|tight(ness)?|pressure|heav(y|iness)|crushing|squeezing|elephant|weight|band)\b.{0,25}\b(in|on|across|around|over|of) (my|the|his|her) chest|(tight|heavy|painful|crushing) chest\b|chest.{0,30}(pain|tight|pressure|heav|crush|squeez|elephant|weight on|band around|vice)|chest (pain|tightness|pressure|heaviness|discomfort)|(pain|tightness|pressure|heaviness) in (my|the|his|her) chest|crushing chest|substernal|retrosternal|elephant on my chest"#
    static let fever = #"(?<!hay )fever|(?<!room |normal |water |bath )temperature(?!(s|'s)? (is |was |has been |seems |of |reading )?(normal|fine|ok|okay|down|3[0-7]\b))|\btemp\b(?!('s)? (is |was |of )?(normal|fine|ok|okay|down|3[0-7]\b))|(feels?|felt|seems) (very |really |so )?hot\b(?! (weather|outside|in here|flush))|feverish|burning up|hot to (the )?touch|pyrexi|febrile"#

    /// A measured temperature under 38 °C is not a fever, whatever word came with it.
    static func readingIsFeverOrAbsent(_ f: Findings) -> Bool { f.vitals.temperatureC.map { $0 >= 38 } ?? true }

    /// Airway or widespread skin signs of an allergic reaction.
    static let airwayOrSkinSigns = #"hoarse|voice (change|sound|is)|wheez|can'?t breathe|(trouble|difficulty|struggling) (breathing|to breathe)|throat (is |feels )?(tight|closing|swell)|tongue (is )?(swell|swollen|thick)|swollen (tongue|lips|face|throat)|swell(ing)? (of|in) (the |my )?(face|lips|mouth|tongue|throat)|(hard|difficult|trouble) to swallow|hives all over|all over (my |his |her )?body|collaps"#
    static let testicle = #"(testic|testes|scrot|(my|his|their) balls?\b)"#
    /// Words that make a swelling in the mouth or throat an allergy until shown otherwise: airway
    /// signs, a known allergen, or a medicine just started.
    static let anaphylaxisOverride = #"anaphyla|epipen|allerg|sting|stung|peanut|nuts?\b|shellfish|closing|can'?t (breathe|swallow)|struggling|wheez|hoarse|voice|faint|dizz|collaps|hives|all over|started|starting|taking|took|tablet|pill|antibiotic|amoxicillin|penicillin|medicine|medication|after eating|\bate\b"#

    /// Whether a swollen or tight mouth or throat has a cause that explains it: an infection
    /// (tonsillitis, a cold), a local cause of a swollen lip, face or tongue (the dentist, a cold
    /// sore, a bite), or anxiety for a tight throat that is not swelling. Never with an override.
    static func swellingHasOrdinaryCause(_ f: Findings) -> Bool {
        let t = f.text.lowercased()
        if t.regexRange(anaphylaxisOverride) != nil { return false }
        if t.regexRange(#"tonsil|strep|glandular|\b(a|the|my|this) cold\b|flu\b|sore throat"#) != nil { return true }
        let throat = t.regexRange(#"throat"#) != nil
        if !throat, t.regexRange(#"cold sore|tooth|teeth|dental|dentist|filling|abscess|bit (my|his|her|it)|bitten|dry|chapped|sunburn|cold weather"#) != nil { return true }
        let swelling = t.regexRange(#"swell|swollen|closing"#) != nil
        return !swelling && t.regexRange(#"anxi|panic|stress"#) != nil
    }

    /// A peak flow given as a percentage of the person's best, read from the whole question (the
    /// clause splitter would part "peak flow 180 (40% of best)"); `atMost` for "less than 50%".
    static func peakFlowPercent(_ f: Findings) -> (value: Double, atMost: Bool)? {
        guard let m = f.text.lowercased().regexFirstCaptures(#"peak ?flow.{0,40}?(less than |under |below |lower than )?\b(\d{1,3})\s*(%|per ?cent)"#),
              let value = Double(m[1]) else { return nil }
        return (value, !m[0].isEmpty)
    }

    static let rules: [SafetyRule] = [
        SafetyRule(flag: "thoughts of suicide or self-harm", level: .emergency, all: [suicide], crisis: true, ignoresNegation: true),
        SafetyRule(flag: "overdose or poisoning", level: .emergency,
                   all: [#"(a handful of|handful of|a fistful of|a whole (bottle|box|pack|packet) of|(took|taken|swallowed) ((?![12]\b)\d+|(?<!\bi took |\bi swallowed |\bi'?ve taken |\bi have taken )[12]\b|a lot of|lots of|loads of)) .{0,25}(tablets|pills|paracetamol|acetaminophen|tylenol|capsules|insulin|meds)|took ((?![12]\b)\d+|(?<!\bi took )[12]\b|a lot of|lots of|loads of|many|too many|a handful of|handful of|a fistful of|a whole (bottle|box|pack|packet) of) .{0,25}(tablets|pills|paracetamol|acetaminophen|tylenol|ibuprofen|capsules|insulin|sleeping|meds|medication)|(got into|swallowed|ingested|ate|chewed|drank|drunk) (some |a |an |the |one |two |a few |a couple of |lots of |all |half )?(of )?(my |his |her |the |their |your |mum'?s |mom'?s |dad'?s |nan'?s |gran(ny|dma)?'?s )?([\w-]+ ){0,2}(pills|tablets?|medicine|medication|capsules|bleach|detergent|pods?\b|antifreeze|battery|batteries|magnets|dishwasher|washing[- ]up liquid|cleaning (fluid|product|spray)|weed ?killer|e-?liquid|vape (juice|liquid))|overdos|took (too many|a (whole )?(bottle|box|packet|pack)|the (whole )?(bottle|box|packet|pack)|all (my|of my|the) (pills|tablets))|swallowed (bleach|poison|a battery|a button battery|batter|chemical|detergent|pills|tablets|medicine)|(?<!food )poison(ed|ing)?\b|carbon monoxide|drank (bleach|antifreeze|chemical)|ate (mushrooms|berries) .*(sick|vomit)"#], crisis: true),
        SafetyRule(flag: "chest pain with warning features", level: .emergency,
                   all: [chestPain], extra: { f in
                       f.severe || f.suddenOnset || (f.ageYears ?? 0) >= 40 || f.history.contains("heart disease") || f.history.contains("diabetes")
                           || f.positive.contains { $0.regexRange(#"arm|jaw|back|sweat|clammy|diaphore|breath|nause|sick|faint|dizz|pass(ed|ing)? out|black(ed|ing)? out|collaps|lighthead|light-headed|elephant|weight on|band around|radiat|spread|crush|squeez|pressure|heav"#) != nil }
                   }),
        SafetyRule(flag: "severe difficulty breathing", level: .emergency,
                   all: [#"can'?t breathe|cannot breathe|can not breathe|unable to breathe|struggling to breathe|struggling for breath|(?<!wakes? up |woke up |waking up )gasping(?! (for (air|breath) )?(at night|in (my|his|her|their) sleep|while (asleep|sleeping|snoring)))|fighting for (breath|air)|stopped breathing|(not|isn'?t|wasn'?t) breathing\b(?! (fast|quickly|rapidly|heavily|hard|any (faster|differently)))|(can|could) (hardly|barely) (breathe|get (my |a )?breath)|can'?t (catch|get) (my|his|her) breath\b(?! (after|when|while|going|climbing|walking|running|on the stairs))|labou?red breathing|breathing is (very |really )?labou?red|grunting|nostrils? flar|(sucking|pulling|drawing) in (under|between|below) (his|her|the|my) ribs|(lips?|mouth|tongue)( \w+){0,2} (blu(e|ish)|grey|gray|purple)|(face|skin|fingers?)( \w+){0,2} (blu(e|ish)|grey|gray)\b(?! (in|when|from|with) (the )?(cold|winter|weather|water)| (and|from) (the )?bruis)|blue( tinge| colour| color)? (a?round|on) (the |his |her |my )?(mouth|lips)|can'?t get (enough )?air|not getting enough air|drool.{0,40}(breath|swallow|sitting forward|leaning forward)|(can'?t|cannot|unable to) swallow.{0,40}(breath|drool)|(noisy|high[- ]pitched) breathing (even )?at rest|blue lips|turning blue|choking|(can'?t|cannot|can not|unable to|couldn'?t) (speak|talk|finish|say|get out)( in)?( full| a| my| whole)? sentences?|too breathless to (speak|talk)|severe (shortness of breath|breathlessness|difficulty breathing|trouble breathing)|ribs? (sucking|pulling) in|(only|barely) (get|say|speak|manage)( out)? (a few|one|two|three|\d+|a couple of) words|(breathless|short of breath|can'?t catch my breath|out of breath).{0,20}(at rest|sitting (still|down)|lying down|resting|even sitting)"#]),
        // Drooling because swallowing is impossible, or sitting forward to breathe: the airway is
        // closing (epiglottitis, abscess). The words fall in separate clauses, hence two patterns.
        SafetyRule(flag: "drooling with trouble swallowing or leaning forward to breathe", level: .emergency,
                   all: [#"drool"#, #"(can'?t|cannot|can not|unable to|won'?t|struggling to|trouble|difficulty|hard to|painful to) (swallow|breathe|breathing)|(sitting|leaning|sits|leans|bent) forward|muffled|hot potato"#]),
        SafetyRule(flag: "possible heart attack without typical chest pain", level: .emergency,
                   all: [#"jaw|(left |right )?arm (pain|ache|heav)|pain (in|down) (my|his|her|the) (left |right )?arm|upper back pain|epigastric"#, #"sweat|clammy|nause|sick|breath|faint|dizz|grey|gray"#],
                   extra: { ($0.ageYears ?? 0) >= 40 || $0.history.contains("diabetes") || $0.history.contains("heart disease") }),
        SafetyRule(flag: "allergic reaction with faintness, breathing or voice changes", level: .emergency,
                   all: [#"(bee|wasp|hornet|insect|jellyfish|scorpion|a|an|the|got|been|from a|after a) stings?\b|stung\b|bees?\b|wasp|hornet|peanut|(?<!(driving|drive|drives|going|gone) (me |him |her )?)nuts?\b|shellfish|allerg(?!ic rhinitis|y season)|hives|welts"#,
                         #"faint|dizz|lighthead|short of breath|breathless|"# + airwayOrSkinSigns]),
        // "After eating" or "after taking" alone is too common (dizzy after a big meal or blood pressure
        // tablets); with airway or widespread skin signs it is a reaction until shown otherwise.
        SafetyRule(flag: "airway or skin reaction after eating or taking something", level: .emergency,
                   all: [#"(after|since) (eating|taking|having|drinking|trying)"#, airwayOrSkinSigns]),
        // Faint or breathless after a common allergen or a medicine: a reaction until shown otherwise.
        SafetyRule(flag: "faint or breathless after a food allergen or a medicine", level: .emergency,
                   all: [#"(after|since) (eating|taking|having|drinking|trying|starting|started) .{0,30}(prawn|shrimp|shellfish|crab|lobster|nuts?\b|peanut|fish|egg|sesame|antibiotic|penicillin|amoxicillin|ibuprofen|aspirin|injection|tablet|pill|medicine|medication)"#,
                         #"faint|short of breath|breathless|collaps"#]),
        SafetyRule(flag: "major trauma (crash, fall from height) with neck, back, head, chest or belly symptoms", level: .emergency,
                   all: [#"(car|bike|motorbike|motorcycle|cycling|cycle|bicycle|road|traffic|scooter|moped|ski|skiing|bus|lorry|truck|train|high[- ]speed|head[- ]on|bad|serious|major|big) (crash|collision|smash)|crash(ed)? (into|(my|his|her|their|our) (car|bike|motorbike|scooter))|(in|had|involved in) an? (?!(sugar|caffeine|energy|computer|market) )(\w+ )?(crash|collision)\b|(after|since|in|from) (the|a|that) crash\b|car accident|road accident|rta|hit by (a )?(car|bus|truck|vehicle)|fell (off|from) (a |the )?(ladder|roof|height|balcony|horse|bike)|fall from (a )?height|thrown from"#,
                         #"neck|back|spine|head|tingl|numb|weak|chest|belly|abdom|stomach|bleed|pain|can'?t move"#]),
        SafetyRule(flag: "low blood sugar with confusion or unable to swallow", level: .emergency,
                   all: [#"(blood sugar|glucose|sugars?|bm|bg)\b.{0,20}(low\b|\b[0-2](\.\d)?\b|\b[1-4]\d\b)|hypo\b|hypoglyc"#, #"confus|drows|can'?t (swallow|eat|drink)|unable to swallow|unconscious|(a |having |had |has |in )fits?\b(?! of)|fitting\b|seizure|won'?t wake|not making sense|slurr"#]),
        SafetyRule(flag: "signs of stroke (face, arm, speech)", level: .emergency,
                   all: [#"face (is |has |was )?(droop|drooping|dropped|fallen|lopsided)|droop(ing|y) (face|mouth|eyelid on one side)|(mouth|smile) (is )?(droop|lopsided|uneven)|slurr(ed|ing)|(can'?t|cannot|unable to) (lift|raise|move) (my|his|her|one|the) (left |right )?(arm|leg)|(weak(ness)?|numb(ness)?|paraly[sz]ed) (on|in|down) (one|the (left|right)) side|one side of (my|his|her|the) (face|body|mouth) (is |has |went |has gone |feels? |looks? )?(droop|dropp|fallen|sagg|slump|weak|numb|paraly|dead|heavy|won'?t move|not moving|isn'?t moving)|(droop|dropp|fallen|sagg|slump|weak|numb|paraly|dead|heavy)\w* (on |down |in |of )?one side of (my|his|her|the) (face|body|mouth)|(face|smile|mouth) (looks?|is|went|has gone|seems) (lopsided|crooked|droopy|uneven|wonky|twisted)|(crooked|lopsided|wonky) (smile|face|mouth)|(can'?t|cannot|unable to|couldn'?t) (get (his|her|my|the|their) words out|find the (right )?words|speak properly|talk properly)|(can'?t|cannot|unable to) (lift|raise|move) one side|(sudden|suddenly).{0,40}(confus|trouble (speaking|talking)|can'?t speak|vision|weak|numb|(arm|leg|hand|side|face) (went |is |feels |has gone )?(dead|heavy))|(trouble|difficulty) (speaking|finding words)|words (are )?(jumbled|garbled)"#]),
        SafetyRule(flag: "sudden severe (thunderclap) headache", level: .emergency,
                   all: [#"worst headache|thunderclap|headache.*(worst|sudden|explod)|(sudden|explosive|exploding|worst).*headache|hit (on|in) the (back of the )?head (with|like)"#]),
        SafetyRule(flag: "stiff neck with fever", level: .emergency,
                   all: [#"stiff neck|neck (is )?stiff|neck stiffness|can'?t (bend|touch) (my |his |her )?(chin|neck)|neck rigid"#, fever]),
        SafetyRule(flag: "rash that does not fade when pressed", level: .emergency,
                   all: [#"(rash|spots).*(does ?n[o']t|doesn'?t|won'?t|not|don'?t|isn'?t|aren'?t) (fad(e|es|ing)|blanch|disappear|go away when (pressed|i press))|(rash|spots).{0,40}(through|under) (a|the) glass|non[- ]?blanching|glass test|purple (spots|rash|blotches)|purpuric|petechia"#]),
        // People often name what they fear: "I think I'm having a heart attack" is reason enough.
        SafetyRule(flag: "says they may be having a heart attack or stroke", level: .emergency,
                   all: [#"(i'?m|i am|(s?he|they)'?s|(s?he|they) (is|are)|might be|could be|am i|is (he|she|this|it)) (having|having had) an? (heart attack|stroke|cardiac arrest|seizure)|(think|worried|scared|afraid|feels? like|might be|could be|maybe|is (this|it)|possibly) .{0,25}\b(heart attack|stroke)\b(?! (risk|prevention|years|in (19|20)\d\d))"#]),
        SafetyRule(flag: "seizure", level: .emergency,
                   all: [#"seizure|seizing|convuls|(is|was|been|keeps|kept|started|still) fitting\b|fitting (again|episode)|having (a )?fits?\b(?! of)|had (a )?fit\b(?! of)|eyes (rolled|rolling) (back|up)|(jerking|twitching|shaking) (all over|uncontrollably|his (arms|legs|whole body)|her (arms|legs|whole body))|shaking (and|&) (unresponsive|won'?t respond)"#]),
        SafetyRule(flag: "unconscious, unresponsive or new confusion", level: .emergency,
                   all: [#"unconscious|unresponsive|(not|isn'?t|wasn'?t) respon(ding|sive)\b(?! (well |at all )?to (?!(me|us|you|him|her|them|voice|his name|her name|their name|my voice|touch|pain|anything|anyone|questions|being)\b))|won'?t come (round|around|to)\b|(keeps|kept) (passing|blacking) out|out of consciousness|(lost|losing|loss of) consciousness|no pulse|(barely|semi|half)[- ]?conscious|out cold|(hard|difficult|impossible) to (rouse|arouse)|(can'?t|cannot) (rouse|keep (him|her|them) awake)|(is|s|was|went|gone|lying|lay|very|completely|totally|all|floppy) limp\b|won'?t wake|can'?t wake|cannot wake|hard to wake|(not|isn'?t) waking|collapsed|passed out|blacked out|very drowsy|floppy|(new(ly)?|sudden(ly)?|acute)\b.{0,30}confus(ed|ion)\b(?! (about|over|by) (the|my|whether|which|how|why|if|this|what (to|i)))|confus(ed|ion)\b(?! (about|over|by) (the|my|whether|which|how|why|if|this|what (to|i))).{0,30}\b(sudden(ly)?|new(ly)?)\b|(doesn'?t|does not|didn'?t) know where (s?he|he|she|they|i) (is|are|am|was)|(doesn'?t|didn'?t|does not) recogni[sz]e (me|us|her|his|their|family)|(not|isn'?t) making (any )?sense|talking (gibberish|nonsense)|delirious"#]),
        SafetyRule(flag: "signs of anaphylaxis", level: .emergency,
                   all: [#"(throat|tongue|lips?|mouth|(?<!on (my|the|his|her) )face) (is |are |feels |feel |started |keeps )?(swell|swollen|closing|tight)|swelling (of|in) (the |my |his |her )?(throat|tongue|lips|face)|anaphyla|epipen|adrenaline (pen|auto)|throat (closing|tight)"#],
                   // A swollen lip after the dentist or a cold sore, or a swollen throat with tonsillitis,
                   // is not anaphylaxis by itself; airway signs, an allergen or a new medicine override that.
                   extra: { !swellingHasOrdinaryCause($0) }),
        SafetyRule(flag: "vomiting or coughing up blood, or black stools", level: .emergency,
                   all: [#"(vomit|throw|threw|throwing|puk|sick).{0,20}blood|blood.{0,12}(in|when i) (vomit|sick)|coffee[- ]grounds?|cough(ing|ed)? (up )?(a lot of |lots of )?blood|black,? (tarry|sticky|tar)|tarry (stool|poo)|black (stool|poo|poop)s?\b|(stools?|poo|poop|faeces|feces) (is |are |was |were |has been |have been |looks? |look )?(black|tarry|like tar)"#],
                   // Iron tablets and bismuth turn stools black harmlessly.
                   extra: { f in f.text.lowercased().regexRange(#"\biron\b|bismuth|pepto"#) == nil
                       || f.positive.contains { $0.regexRange(#"vomit|dizz|faint|sticky|tarry|blood"#) != nil } }),
        SafetyRule(flag: "heavy bleeding", level: .emergency,
                   all: [#"(bleed|nosebleed|nose bleed|blood).{0,25}(pouring|gushing|spurting|won'?t stop|not stopping|will not stop|for (over |more than )?([2-9]\d|\d{3}) min)|bleeding (heavily|a lot|badly|profusely|won'?t stop|that won'?t stop|will not stop|doesn'?t stop|does not stop|non[- ]stop)|heavy bleeding|won'?t stop bleeding|soak(ing|ed)? (through )?(a |one )?(pad|tampon)s? (an|every|each|in an) hour|blood (is )?(spurting|pouring|gushing)|losing a lot of blood"#]),
        SafetyRule(flag: "severe abdominal pain", level: .emergency,
                   all: [#"(severe|worst|unbearable|excruciating|agoni[sz]ing|intense|terrible) .{0,20}(abdominal|stomach|belly|tummy|abdomen|lower right|pelvic) pain|(abdominal|stomach|belly|tummy) pain.{0,20}(severe|unbearable|excruciating|worst)|rigid (abdomen|belly|tummy)|(belly|stomach|abdomen|tummy) (is )?(hard|rigid) (as|like) a board"#]),
        SafetyRule(flag: "sudden testicle pain", level: .emergency,
                   all: [testicle, #"sudden|severe|swollen|swelling|vomit|excruciat|intense"#],
                   // Torsion is sudden and painful; painless or days-old swelling falls to the urgent rule below.
                   extra: { f in f.suddenOnset || f.severe
                       || (f.positive.contains { $0.regexRange(#"pain(?!less)|hurt|ach(e|ing)|tender|sore|agony|vomit|throw(ing)? up|sick\b"#) != nil } && (f.durationDays ?? 0) < 3) }),
        SafetyRule(flag: "pregnancy with bleeding, severe pain, headache with vision changes, or reduced movements", level: .emergency,
                   all: [#"bleed|spotting heavily|severe (pain|cramp|headache)|(abdominal|stomach|belly|tummy|pelvic|shoulder tip) pain|vision (is |has |went |has gone |got |getting )?(blurr|funny|strange|weird|go(ne|ing)|chang|dark|spott|flash|disturb|problem|loss)|(loss of|change in|changes in|disturbed|problems with|funny|strange|blurr(ed|y)) (my )?vision|blurr|flashing|seeing spots|swelling (of|in) (my )?(face|hands)|(baby|babies).{0,20}(moving less|(not|isn'?t|hasn'?t been|has not been) moving|stopped moving|less movement|no movement|(hasn'?t|has not|haven'?t) moved|quieter)|(haven'?t|not|can'?t) (felt|feel) (the |my )?baby|(fewer|less|no|reduced) (kicks|movements)|reduced (fetal |foetal )?movement|waters? (broke|broken|leaking)|fits\b(?! of| into| in (my|the|her))|(a|had|having|has|have) fit\b(?! of)|fitting\b|seizure"#],
                   extra: { $0.pregnant }),
        SafetyRule(flag: "fever in a baby under 3 months", level: .emergency,
                   all: [fever], extra: { ($0.ageYears ?? 99) < 0.25 && Self.readingIsFeverOrAbsent($0) }),
        SafetyRule(flag: "head injury with warning signs", level: .emergency,
                   all: [#"(hit|bang(ed)?|bump(ed)?|knock(ed)?|injur(ed|y)|fell|fall|struck|trauma).{0,30}head|head (injury|trauma|wound)|concussion"#,
                         #"vomit|throw(ing)? up|threw up|thrown up|(been|being|was|were|is|got) sick\b|puk|confus|drows|sleepy|unconscious|knocked out|passed out|seizure|fit\b|blood thinner|warfarin|clear fluid|bleeding from (ear|nose)|can'?t remember|memory|worse"#]),
        SafetyRule(flag: "loss of bladder or bowel control or saddle numbness with back pain", level: .emergency,
                   all: [#"numb.{0,25}(saddle|groin|bottom|buttock|genital|inner thigh|between (my|the) legs|private)|(saddle|groin|bottom|genital).{0,15}numb|(can'?t|cannot|unable to|lost|loss of) (control|hold|feel).{0,15}(bladder|bowel|pee|wee|urine|poo)|(bladder|bowel) control|(can'?t|cannot|unable to) (pee|urinate|pass urine)"#]),
        SafetyRule(flag: "sudden loss of vision", level: .emergency,
                   all: [#"(sudden(ly)?|lost|loss of|can'?t see) .{0,20}(vision|sight\b|blind\b)|went (suddenly |completely |totally )?blind|(vision|sight) (suddenly )?(went|has gone|going|turned) (black|dark|grey|gray|blank)|(can'?t|cannot) see (out of|with|from) (one|my (left|right)|his (left|right)|her (left|right)) eye|curtain (over|across|coming)|shadow (over|across) (my )?vision|chemical.{0,20}eye|eye.{0,20}(chemical|bleach)"#]),
        SafetyRule(flag: "large or deep burn or scald", level: .emergency,
                   all: [#"(sun)?burn(s|t|ed)?\b|scald|boiling|hot water|kettle|hot oil|flames|fire\b|chemical"#, #"white|charred|leathery|big area|large area|all over|whole (arm|leg|chest|back)|blister(ed|s|ing)? (all )?over|face|genital|peeling off in sheets"#]),
        SafetyRule(flag: "severe burn", level: .emergency,
                   all: [#"(severe|large|big|deep|bad|serious|chemical|electrical) burn|((sun)?burn(s|t|ed)?\b|scald|boiling|hot water|kettle|hot oil|flames|fire).{0,80}(face|hand|genital|large|big area|whole|all over|blister(ed|s|ing)? (all|over)|white|charred|leathery|chest and|arm and)|(?<!like (an? )?|as if from (an? )?)electric shocks?\b(?![- ]?like|[- ]type| (sensation|feeling|pain)s?\b)|electrocut"#]),
        SafetyRule(flag: "signs of sepsis", level: .emergency,
                   all: [#"mottled|blotchy (skin|blue)|(skin|lips) (pale|grey|blue)|(not|hasn'?t|haven'?t|hadn'?t) (peed|urinated|passed (any )?urine|weed|had a (wee|pee))( at all)? (all day|(in|for) (over |more than )?(1[2-9]|[2-9]\d) hours|(in|for) (a|one|a whole|over a) day|since (yesterday|last night))|no (urine|pee|wee)s? (all day|(in|for) (over |more than )?(1[2-9]|[2-9]\d) hours|(in|for) (a|one|a whole|over a) day|since (yesterday|last night))|feel(s|ing)? like (i'?m|i am|s?he'?s) (going to|gonna) die|never felt (this|so) (ill|unwell|sick|bad)|no wet nappies|no wet diapers|shivering uncontrollably|rigors|feel like (i'?m|i am) dying|sunken (fontanelle|soft spot)"#]),
        SafetyRule(flag: "diabetes with vomiting and drowsiness or fast breathing (possible ketoacidosis)", level: .emergency,
                   all: [#"vomit|throw(ing)? up|sick"#, #"drows|confus|fast breathing|deep breath|breathing (deep|fast|hard|heavy|rapid)|(says|reads|shows) hi\b|fruity|ketone|blood sugar (is )?(very )?high|sugars? (are |is )?(very )?high|\bhi\b on (the |my )?meter"#],
                   extra: { $0.history.contains("diabetes") }),
        SafetyRule(flag: "snake bite or severe allergic sting", level: .emergency,
                   all: [#"snake ?bite|bitten by a snake|bitten by (a|an) (adder|rattlesnake|viper)"#]),
        SafetyRule(flag: "heat stroke or hypothermia", level: .emergency,
                   all: [#"heat ?stroke|stopped sweating|hypotherm"#]),
        // Clauses split on "and", so "too cold and confused" needs two patterns, not one.
        SafetyRule(flag: "very cold with confusion or drowsiness (possible hypothermia)", level: .emergency,
                   all: [#"(very|too|freezing|ice|icy|really) cold\b(?! (sore|symptoms))|cold to (the )?touch"#,
                         #"confus|mumbl|slurr|stumbl|drows|won'?t wake|hard to wake|not making sense"#]),
        SafetyRule(flag: "severe dehydration or not drinking in a child", level: .emergency,
                   all: [#"(not|isn'?t|won'?t|refus(es|ing)( to)?) (drink|feed)(ing|s)?\b(?! (as much|as well|so well|my|him|her|them|dairy|solids|alcohol))|(refus|reject)(es|ing) (feeds|(the |his |her |all )?(bottle|breast|milk|fluids))|(hardly|barely) (drinking|feeding)|(no|hasn'?t had (a|any)|has not had (a|any)|haven'?t had (a|any)) wet (nappy|nappies|diapers?)|hasn'?t (peed|wee'?d) in"#], extra: { ($0.ageYears ?? 99) < 1 }),
        // Peak flow against the person's best: under half is a severe attack (half to three quarters,
        // a moderate one, is in the same-day rules below).
        SafetyRule(flag: "peak flow under half of best (severe asthma attack)", level: .emergency, all: [],
                   extra: { peakFlowPercent($0).map { $0.value < 50 || ($0.atMost && $0.value <= 50) } ?? false }),
        SafetyRule(flag: "sudden severe calf or leg swelling with breathlessness", level: .emergency,
                   all: [#"(calf|leg).{0,20}(swollen|swelling|pain)"#, #"breathless|short of breath|shortness of breath|can'?t (catch my )?breath|struggling to breathe|chest pain|cough(ing)? (up )?blood"#]),
    
        // Same-day (urgent) warning signs: never an emergency by themselves, but never self-care.
        SafetyRule(flag: "high fever (39 °C / 102 °F or more)", level: .urgent, all: [], extra: { ($0.vitals.temperatureC ?? 0) >= 39 }),
        SafetyRule(flag: "fever in a child under 5", level: .urgent, all: [fever], extra: { ($0.ageYears ?? 99) < 5 && Self.readingIsFeverOrAbsent($0) }),
        SafetyRule(flag: "fever lasting 3 days or more", level: .urgent, all: [fever], extra: { ($0.durationDays ?? 0) >= 3 }),
        SafetyRule(flag: "spreading redness or a red streak (possible spreading infection)", level: .urgent,
                   all: [#"(redness|red patch|red area|red streak|red line|red skin).{0,40}(spread|creep|bigger|growing|past the (pen )?line|up my (arm|leg))|(spread|spreading|creeping).{0,30}(red|the line)|red streak(?!s? (of blood|on (the )?(toilet|tissue|paper|stool|poo)|in (my |the |his |her )?(stool|poo|urine|pee|phlegm|spit|mucus|sputum|vomit)))"#]),
        SafetyRule(flag: "pregnancy with new symptoms", level: .urgent,
                   all: [#"spotting|bleed|burn(s|ing)? when|pee(s|d|ing)?\b|urin|pain|fever|vomit|headache|swelling|itch(y|ing) (all over|palms|soles)|discharge|leak"#], extra: { $0.pregnant }),
        SafetyRule(flag: "testicle pain or swelling", level: .urgent,
                   all: [testicle, #"pain(?!less)|hurt|ach(e|ing)|tender|sore|swoll|swell|lump"#]),
        SafetyRule(flag: "shingles or a rash near the eye", level: .urgent, all: [#"(shingles|rash|blisters).{0,40}(eye|forehead|nose tip)|eye.{0,30}(shingles|rash|blisters)"#]),
        SafetyRule(flag: "infected-looking wound or foot sore with diabetes", level: .urgent,
                   all: [#"sore|wound|ulcer|cut(s|ting)?\b|blister|toe|foot\b|feet\b"#, #"red(ness|dish|der)?\b|swollen|swelling|smell|pus\b|hot\b|black|spreading"#], extra: { $0.history.contains("diabetes") }),
        SafetyRule(flag: "severe flank pain (possible kidney stone or kidney infection)", level: .urgent,
                   all: [#"(flank|loin|side|kidney).{0,30}(pain|ache)|(pain|ache).{0,20}(flank|loin|kidney)|pain.{0,30}(to|into|towards) (my |the )?groin"#]),
        SafetyRule(flag: "bleeding while on blood thinners", level: .urgent, all: [#"bleed|nosebleed|blood|bruis"#], extra: { $0.history.contains("on blood thinners") }),
        SafetyRule(flag: "swollen, red or painful calf (possible clot)", level: .urgent,
                   all: [#"(calf|leg).{0,40}(swollen|swelling|\bred(ness|dish)?\b|tender|\bhot\b|\bwarm\b|pain)|(swollen|swelling|red|tender|hot|warm|painful) (left |right )?(calf|leg)"#]),
        SafetyRule(flag: "burn larger than the palm or blistered", level: .urgent,
                   all: [#"(sun)?burn(s|t|ed)?\b|scald"#, #"blister|bigger than|larger than|palm|deep"#]),
        SafetyRule(flag: "barking cough or noisy breathing in a child", level: .urgent,
                   all: [#"bark|croup|stridor|noisy breathing|whistl"#], extra: { ($0.ageYears ?? 99) < 12 }),
        SafetyRule(flag: "cannot keep fluids down", level: .urgent,
                   all: [#"(can'?t|cannot|unable to|not able to) keep (any )?(water|fluids?|drinks?|anything) down|fewer wet (nappies|diapers)|not (peed|weed|urinated) (much|for)|lighthead.{0,20}stand|dizzy when (i )?stand"#]),
        SafetyRule(flag: "new floaters or flashing lights (possible retinal tear)", level: .urgent,
                   all: [#"floater|flash(es|ing)? (of )?light|lights? flash|sparkl.{0,20}(eye|vision)"#]),
        SafetyRule(flag: "fever with pain on breathing in (possible pneumonia or pleurisy)", level: .urgent,
                   all: [fever, #"(pain|hurts?|stab|sharp).{0,40}(breath(e|ing)? in|deep breath|inhal)|(breath(e|ing)? in|deep breath|inhal).{0,40}(pain|hurts?|stab|sharp)|pleuri"#]),
        SafetyRule(flag: "a gaping wound that may need closing", level: .urgent,
                   all: [#"gap(ing|es|ed)?|wide open|won'?t (close|stay closed)|edges (are |won'?t |do not |don'?t )?(apart|open|come together|meet)|(need|needs|might need|may need) (stitches|sutures|glue)|deep cut|cut .{0,20}deep|can see (fat|bone|tendon)"#]),
        // A suddenly hot, red, swollen joint is gout at best and a joint infection at worst: same day.
        SafetyRule(flag: "a hot, swollen joint", level: .urgent,
                   all: [#"(toe|knee|ankle|wrist|elbow|shoulder|hip|joint|finger)"#, #"\bhot\b(?! (weather|day|days|bath|shower|climate|summer|water|drink|tub))|warm to (the )?touch"#, #"swoll|swell"#]),
        // Grinding, hammering or drilling can drive a fragment into the eye without much pain at first.
        SafetyRule(flag: "possible fragment in or through the eye (high-speed injury)", level: .urgent,
                   all: [#"(metal|glass|wood|stone|chip|fragment|splinter|shard|something).{0,40}(flew|went|got|hit|stuck|lodged).{0,20}eye|(grind|grinding|hammer|hammering|drill|drilling|chisel|strimm|mowing).{0,60}eye|eye.{0,60}(grind|grinding|hammer|hammering|drill|drilling|chisel)"#]),
        SafetyRule(flag: "painful red eye", level: .urgent,
                   all: [#"eye"#, #"pain|hurts|sore|light sensitiv|sensitive to light|blurr"#, #"red(ness|dish|der)?\b|contact lens|lights?\b"#]),
        SafetyRule(flag: "asthma not settling with the reliever inhaler", level: .urgent,
                   all: [#"inhaler|puffer|salbutamol|ventolin|reliever"#, #"still|not help|isn'?t help|no better|wheez|breathless|tight"#]),
        SafetyRule(flag: "pelvic pain with fever or discharge", level: .urgent,
                   all: [#"pelvi|lower (abdominal|tummy|belly) pain"#, #"fever|temperature|discharge|smell"#]),
        SafetyRule(flag: "very high blood sugar or ketones", level: .urgent,
                   all: [#"(blood sugar|glucose|sugars?).{0,20}(\b(1[5-9]|[2-9]\d)(\.\d)?\b|very high)|ketones?"#]),
        SafetyRule(flag: "earache with fever in a child", level: .urgent, all: [#"ears?\b|earache"#, fever], extra: { ($0.ageYears ?? 99) < 12 }),
            SafetyRule(flag: "cannot bear weight or a deformed limb (possible fracture)", level: .urgent,
                   all: [#"(can'?t|cannot|unable to) (put (any )?weight|bear weight|stand on|walk on)|deformed|bent the wrong way|bone (is )?(sticking|poking) out"#]),
        SafetyRule(flag: "a bone that may be broken", level: .urgent,
                   all: [#"(might|may|could|must) (be|have) (been )?(broken|fractured|cracked)|(?<!(don'?t|do not|doesn'?t|didn'?t) )think (it'?s|it is|i'?ve|i have|i|(s?he|they) (has|have)|(s?he|they)'?s?) (broken|fractured|cracked|broke)|(broken|fractured|cracked) (bone|wrist|arm|ankle|leg|finger|rib|collarbone|hip|elbow|kneecap|nose|jaw)"#]),
        SafetyRule(flag: "peak flow 50–75 % of best (moderate asthma attack)", level: .urgent, all: [],
                   extra: { peakFlowPercent($0).map { (50..<75).contains($0.value) && !($0.atMost && $0.value <= 50) } ?? false }),
        SafetyRule(flag: "bite that broke the skin", level: .urgent,
                   all: [#"\b(dog|cat|animal|human|bat|fox|monkey)\b.{0,20}\b(bit|bite|bitten)|(bit|bitten) by (a |an |my |the )?(dog|cat|animal|person|child|bat|fox|monkey)"#]),
        SafetyRule(flag: "abscess or boil that is growing or with fever", level: .urgent,
                   all: [#"abscess|boil|carbuncle"#, #"bigger|growing|spreading|fever|temp(erature)?s?\b|very painful|really painful|red streak"#]),
        SafetyRule(flag: "run out of or missed essential medicine (epilepsy, insulin, steroids, heart)", level: .urgent,
                   all: [#"(ran out|run out|running out|missed|forgot|stopped|out of) .{0,30}(epilep|seizure|anti-?epileptic|insulin|steroid|hydrocortisone|heart|transplant|anticoagula|blood thinner)"#]),
    ]
}
