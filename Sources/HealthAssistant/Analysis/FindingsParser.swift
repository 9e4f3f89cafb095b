import Foundation

/// Turns free text into `Findings`: clauses with negation (NegEx-style: a cue such as "no",
/// "denies", "without", "never" negates the rest of its clause, through "or"/"and" lists, until
/// "but"), age and sex in lay and clinical phrasing, pregnancy, onset, severity, duration, vitals
/// with units, and history. The clinical vocabulary (negation cues, history, onset and severity
/// words) is data: `rules/negation.yaml` and `rules/findings.yaml`, through `FindingsLexicon`.
public struct FindingsParser: Sendable {
    let lexicon: FindingsLexicon

    public init(lexicon: FindingsLexicon) { self.lexicon = lexicon }

    static let wordNumbers: [String: Double] = ["a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                                                "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3, "several": 4]

    public func parse(_ raw: String) -> Findings {
        let folded = respelled(TextFolding.ascii(raw))
        let text = folded.replacingOccurrences(of: "\n", with: ". ")
        let lower = text.lowercased()
        var f = Findings(text: folded, clauses: clauses(lower))
        // "had our baby 4 days ago" says who gave birth, not a baby's age, unless the message is
        // about the baby ("he is yellow and sleepy", feeds, nappies): then the birth is not the patient's.
        // "I'm 29 weeks" is how far along a pregnancy is: no age of 29 and no duration.
        let gestation = lexicon.pregnancyWeeks.ranges(in: lower)
        // "my son has 2 years" (an age told as in Spanish, French or Italian) is an age, not a duration.
        let timed = Self.ageToldWithHave(gestation.reversed().reduce(lower) { $0.replacingCharacters(in: $1, with: "pregnant") })
        // (A pregnancy's weeks hold no words of a birth, so the birth is found in `timed` as in the text.)
        let birth = lexicon.babyIsPatient.matches(lower) ? [] : lexicon.postpartum.ranges(in: timed)
        f.pregnant = (!gestation.isEmpty || lexicon.pregnant.matches(lower)) && !lexicon.pregnancyDenial.matches(lower)
        // In a pregnancy "the baby" is the one not yet born: no baby's age for the writer.
        f.ageYears = age(birth.reversed().reduce(timed) { $0.replacingCharacters(in: $1, with: "gave birth") }, babyWordIsAnAge: !f.pregnant)
        f.sex = sex(lower)
        f.postpartum = !birth.isEmpty
        if f.pregnant || f.postpartum { f.sex = .female }
        f.durationDays = duration(timed)
        f.lastedDays = lasted(timed)
        f.suddenOnset = lexicon.sudden.matches(lower)
        f.gradualOnset = lexicon.gradual.matches(lower)
        f.severe = lexicon.severe.matches(lower)
        f.vitals = vitals(lower)
        // A measured fever is a finding in words too, so flags and findings that name one meet it;
        // the clause quotes the reading, so evidence citing it says where it came from.
        if let t = f.vitals.temperatureC, t >= lexicon.measuredFever.atLeastC {
            f.clauses.append(.init(text: lexicon.measuredFever.says + String(format: " (%.1f °C measured)", t), negated: false, derived: true))
        }
        // A finding said in an idiom the library's wordings cannot hold in two words ("he's been
        // sick twice" is vomiting in British English): said again in the library's words. An idiom
        // whose own words mislead ("can't breathe through my nose") is read as the restatement alone.
        for i in f.clauses.indices where !f.clauses[i].negated && !f.clauses[i].derived {
            let lowered = f.clauses[i].text.lowercased()
            for r in lexicon.restatements where r.pattern.matches(lowered) {
                if r.replaces {
                    f.clauses[i].text = r.says
                    break
                }
                if !f.clauses.contains(where: { $0.derived && $0.text == r.says }) { f.clauses.append(.init(text: r.says, negated: false, derived: true)) }
            }
        }
        // A clause that only gives a normal reading ("temperature 36.8") says no finding: its words
        // name a fever, in meaning and in the library's wordings ("a temperature"). The reading stays in the vitals.
        if let t = f.vitals.temperatureC, t < lexicon.measuredFever.normalBelowC {
            f.clauses.removeAll { c in
                !c.negated && temperature(c.text.lowercased()) != nil
                    && TextMatch.stems(c.text).allSatisfy { lexicon.measuredFever.readingWords.contains($0) || $0.allSatisfy(\.isNumber) }
            }
        }
        f.history = history(lower)
        return f
    }

    /// The text with its common misspellings (`rules/spellings.yaml`) read as the words they stand
    /// for: "cant get a full breth" is read as "cant get a full breath" by every rule and concept.
    func respelled(_ text: String) -> String {
        guard !lexicon.spellings.isEmpty else { return text }
        var out = "", word = ""
        out.reserveCapacity(text.utf8.count)
        func flush() {
            guard !word.isEmpty else { return }
            out += lexicon.spellings[word.lowercased()] ?? word
            word = ""
        }
        for ch in text {
            if ch.isLetter || (ch == "'" && !word.isEmpty) { word.append(ch) } else { flush(); out.append(ch) }
        }
        flush()
        return out
    }

    // MARK: clauses and negation

    func clauses(_ text: String) -> [Findings.Clause] {
        var out: [Findings.Clause] = []
        // Sentences first, then commas and brackets; "but", "although", "however" start afresh.
        for sentence in Self.sentences(text) {
            let pieces = sentence.components(separatedBy: CharacterSet(charactersIn: ",()"))
                .flatMap(Self.splitAtBut)
                .flatMap { $0.components(separatedBy: " however ") }
                .flatMap { $0.components(separatedBy: " although ") }
                .flatMap { $0.components(separatedBy: " though ") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            var negatedList = false
            for (i, piece) in pieces.enumerated() {
                // "no fever, chills, or night sweats": a negated list runs across commas when it
                // ends in "or"/"nor" — "no fever, headache for 3 days" keeps the headache.
                if negatedList, negationStart(piece) == nil, !Self.startsNewPredicate(piece) || Self.carriesNever(piece, in: sentence),
                   Self.closesNegatedList(pieces[i...]) {
                    for part in splitList(piece) {
                        let item = part.regexRange("^(or|nor) ").map { String(part[$0.upperBound...]) } ?? part
                        out.append(.init(text: item, negated: true))
                    }
                    continue
                }
                let start = out.count
                appendClauses(piece, to: &out)
                negatedList = out.count > start && out.last!.negated
            }
        }
        return out.filter { !$0.text.isEmpty && $0.text.rangeOfCharacter(from: .letters) != nil }
    }

    /// What opens a "but" that only qualifies what came before ("but much less", "but not as much").
    static let qualifiesWhatCameBefore = #"^(?:(?:much|a lot|a bit|far|way|lots|loads|even|still) )?(?:less|fewer|weaker|slower|quieter|softer|not (?:as|so|like|nearly)|nowhere near|hardly|barely)\b"#

    /// A piece split at " but ", except where what follows only qualifies what came before ("the
    /// baby is moving but much less than usual", "kicking but not as much"): apart, the first half
    /// would read as all being well and the second as nothing at all.
    static func splitAtBut(_ piece: String) -> [String] {
        let parts = piece.components(separatedBy: " but ")
        guard parts.count > 1 else { return parts }
        var out = [parts[0]]
        for part in parts.dropFirst() {
            if part.trimmingCharacters(in: .whitespaces).lowercased().regexRange(Self.qualifiesWhatCameBefore) != nil {
                out[out.count - 1] += " but " + part
            } else {
                out.append(part)
            }
        }
        return out
    }

    /// Sentences split at . ; ! ? and line breaks, except a point between digits: "temp 38.3 and
    /// shivering" is one sentence, not "temp 38" and "3 and shivering".
    static func sentences(_ text: String) -> [String] {
        var out: [String] = [], current = ""
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            let decimalPoint = c == "." && i > 0 && i + 1 < chars.count && chars[i - 1].isNumber && chars[i + 1].isNumber
            // Texting splits a message into bursts with a spaced slash ("isnt shifting / his eyes
            // look pink"); "120/80" and "and/or" keep theirs.
            let burstBreak = c == "/" && i > 0 && i + 1 < chars.count && chars[i - 1] == " " && chars[i + 1] == " "
            if (".;!?\n".contains(c) && !decimalPoint) || burstBreak { out.append(current); current = "" } else { current.append(c) }
        }
        out.append(current)
        return out
    }

    /// A short clause that ends by saying all is well ("breathing normally", "lips and tongue fine",
    /// "wet nappies as usual") denies a problem with what it names, as a cue before it would
    /// (NegEx's post-negation: the cue follows the finding). Words from rules/negation.yaml.
    /// The whole piece counts, so "lips and tongue fine" denies both.
    /// A negation before it turns it round: "not breathing normally" is a red flag, not a denial.
    /// A whole clause saying an ability still there ("I can swallow") reassures too (`abilities`).
    func isReassurance(_ piece: String) -> Bool {
        let words = piece.split(separator: " ")
        if lexicon.abilities.matches(piece.lowercased().trimmingCharacters(in: .whitespaces)) { return true }
        // The length is the predicate's: "but I am eating and drinking perfectly well" is as short
        // a reassurance as "eating and drinking perfectly well".
        let predicate = piece.lowercased().regexReplacing(Self.leadingSubject, with: "").split(separator: " ")
        guard words.count >= 2, predicate.count <= lexicon.reassuranceMaxWords, !lexicon.anyNegationCue.matches(piece) else { return false }
        // "breathing faster than normal", "hardly feeding well", "stopped feeding well": a change
        // from normal is a finding, not a reassurance.
        if words.contains(where: { lexicon.reassuranceBreakers.contains(String($0)) }) { return false }
        return lexicon.reassurances.contains(String(words.last!)) || lexicon.reassurances.contains(words.suffix(2).joined(separator: " "))
    }

    /// A joining word and a subject with its verb "to be" at the start of a piece.
    static let leadingSubject = #"^\s*(?:(?:and|but|though|although|yet|so) )?(?:(?:i|he|she|they|we|it|baby|(?:my|our|his|her|their|the) \w+)(?: am| is| are| was| were|'s|'m|'re| has been| have been)? )?"#

    /// Whether these comma pieces, read from the first, reach an "or"/"nor" item before anything
    /// that starts a new predicate.
    static func closesNegatedList(_ pieces: ArraySlice<String>) -> Bool {
        for piece in pieces {
            let lower = piece.lowercased()
            if lower.hasPrefix("or ") || lower.hasPrefix("nor ") || lower.contains(" or ") || lower.contains(" nor ") { return true }
            if startsNewPredicate(lower) { return false }
        }
        return false
    }

    /// A negation covers the list after its cue ("no fever, cough or rash") but stops where a new
    /// predicate starts ("not feeding and has a fever": the fever is present); the rest is read
    /// afresh, so it may carry a negation of its own.
    func appendClauses(_ piece: String, to out: inout [Findings.Clause]) {
        let p = piece.trimmingCharacters(in: .whitespaces)
        guard !p.isEmpty else { return }
        guard let cue = negationStart(p) else {
            // A reassurance may end the piece ("feeding and drinking fine") or one item of it
            // ("drinks well, pees normal and is playing").
            let reassured = isReassurance(p)
            for part in splitList(p) { out.append(.init(text: part, negated: reassured || isReassurance(part))) }
            return
        }
        let before = String(p[p.startIndex..<cue.lowerBound]).trimmingCharacters(in: .whitespaces)
        var after = String(p[cue.upperBound...]).trimmingCharacters(in: .whitespaces)
        // Unpunctuated text (voice typing, run-on messages) puts a new statement straight after a
        // denial: "not sleeping well on the train home i got a squeezing in my chest". A subject
        // that starts a statement ends the denial; the rest is read afresh, after the denial.
        var rest: String?
        if let k = Self.newStatementStart(in: after) ?? Self.afterAtAll(in: after) {
            rest = String(after[k...])
            after = String(after[..<k]).trimmingCharacters(in: .whitespaces)
        }
        defer { if let rest { appendClauses(rest, to: &out) } }
        // "white of eye not red": the few words before the denial say what it is about.
        let subject = !before.isEmpty && before.split(separator: " ").count <= lexicon.denialSubject.maxWords
            && lexicon.denialSubject.cues.contains(p[cue].lowercased())
        for part in splitList(before) { out.append(.init(text: part, negated: isReassurance(part), literalOnly: subject)) }
        // An auxiliary's denial ("didn't take my inhaler") covers its own verb and an "or" list
        // ("didn't eat or drink"), not what follows "and" or "with": "and can't breathe" is new.
        if lexicon.narrowScopeCues.contains(p[cue].lowercased()),
           let joint = after.range(of: #"\s+(and|with|n|&|plus|then)\s+"#, options: [.regularExpression, .caseInsensitive]) {
            for part in splitList(String(after[..<joint.lowerBound])) { out.append(.init(text: part, negated: true)) }
            appendClauses(String(after[joint.upperBound...]), to: &out)
            return
        }
        let parts = splitList(after)
        // "never fainted or had chest pain": an "or" item with no subject of its own stays in the
        // denial; "and has a rash" is new, and so is "or I'm having a heart attack". What follows
        // "with" belongs to the denied item ("no trouble with her breathing").
        if let end = parts.indices.dropFirst().first(where: {
            Self.startsNewPredicate(parts[$0])
                && !(Self.startsWithBareVerb(parts[$0]) && (after.contains(" or " + parts[$0]) || after.contains(" nor " + parts[$0])))
                && !after.lowercased().contains(" with " + parts[$0].lowercased())
        }) {
            for part in parts[..<end] { out.append(.init(text: part, negated: true)) }
            // The rest as written, so its own "or" stays: "… and I don't take aspirin or any blood
            // thinners" keeps both denied (joined with "and", the blood thinners were read as taken).
            var from = after.startIndex
            for part in parts[..<end] { if let r = after.range(of: part, range: from..<after.endIndex) { from = r.upperBound } }
            let restAsWritten = after.range(of: parts[end], range: from..<after.endIndex).map { String(after[$0.lowerBound...]) }
            appendClauses(restAsWritten ?? parts[end...].joined(separator: " and "), to: &out)
        } else {
            for part in parts { out.append(.init(text: part, negated: true)) }
        }
    }

    static let predicateStarts: Set<String> = ["has", "have", "had", "is", "am", "are", "was", "were", "feel", "feels", "felt", "got", "gets",
                                               "keeps", "kept", "started", "starting", "now", "also", "then", "i", "he", "she", "they", "it",
                                               "it's", "its", "my", "his", "her", "their", "seems", "looks", "developed", "woke", "became",
                                               "there", "there's", "theres", "we", "you",
                                               // "no fever and suddenly can't breathe": a new statement.
                                               "i'm", "im", "i've", "ive", "he's", "hes", "she's", "shes", "they're", "theyre", "we're",
                                               "can't", "cant", "cannot", "couldn't", "couldnt", "suddenly"]

    /// Verbs that can continue a denied "or" list without a subject ("never fainted or had chest pain").
    static let bareVerbs: Set<String> = ["has", "have", "had", "was", "were", "been", "felt", "feel", "feels", "got", "gets", "kept", "keeps",
                                         "started", "developed", "became", "seems", "looks", "woke"]

    /// Subjects that start a statement of their own, and the words after which they do not (a
    /// subordinate clause belongs to the denial: "no pain when I breathe", "not since she fell").
    static let statementSubjects: Set<String> = ["i", "i'm", "im", "i've", "ive", "he", "he's", "hes", "she", "she's", "shes",
                                                 "we", "we've", "weve", "they", "they're", "theyre", "they've", "theyve"]
    static let subordinators: Set<String> = ["when", "whenever", "if", "because", "cos", "coz", "bc", "as", "that", "since", "after",
                                             "before", "while", "unless", "until", "till", "til", "where", "than", "whether", "how",
                                             "what", "which", "who", "so", "and", "or", "nor", "but", "though", "like", "once", "even",
                                             "thought", "think", "know", "knew", "said", "says", "sure", "say", "hope", "wish", "can", "could"]

    /// "no chest pain at all just clammy": after "at all", "just" or "only" says what there is instead.
    static func afterAtAll(in text: String) -> String.Index? {
        guard text.contains("at all") else { return nil }
        return text.regexRange(#"\bat all,?\s+(?=(just|only|but|apart from)\s+\w)"#)?.upperBound
    }

    /// Where a new statement starts inside a denial's words, past their first word: a subject
    /// (`statementSubjects`) not after a subordinating word, with a word after it.
    static func newStatementStart(in text: String) -> String.Index? {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        for (n, word) in words.enumerated() where n > 0 && n + 1 < words.count {
            if statementSubjects.contains(word.lowercased()), !subordinators.contains(words[n - 1].lowercased()) { return word.startIndex }
        }
        return nil
    }

    /// After "never", a perfect's bare "had" or "been" carries a denied comma list on ("I've never
    /// fainted, had chest pain or been breathless"); any other verb or a subject starts a statement
    /// of its own ("not eating, has crushing chest pain or ...").
    static func carriesNever(_ piece: String, in sentence: String) -> Bool {
        guard let first = firstWord(piece), first == "had" || first == "been" else { return false }
        return sentence.range(of: #"\bnever\b"#, options: [.regularExpression, .caseInsensitive]) != nil
    }

    static func firstWord(_ part: String) -> String? { part.lowercased().split(separator: " ").first.map(String.init) }

    static func startsWithBareVerb(_ part: String) -> Bool { firstWord(part).map(bareVerbs.contains) ?? false }

    static func startsNewPredicate(_ part: String) -> Bool {
        guard let first = firstWord(part) else { return false }
        if predicateStarts.contains(first) { return true }
        // A subject with its own verb: "not able to stand and the leg is looking shorter".
        guard first == "the" || first == "this" || first == "that" else { return false }
        return part.lowercased().split(separator: " ").dropFirst().prefix(3).contains { subjectVerbs.contains(String($0)) }
    }

    static let subjectVerbs: Set<String> = ["is", "are", "was", "were", "has", "have", "had", "looks", "looked", "looking", "seems", "feels", "felt", "keeps", "went", "got", "gets", "became"]

    /// The first negation cue in a clause (as a whole word), if any.
    func negationStart(_ clause: String) -> Range<String.Index>? {
        // Most clauses hold no cue at all: one pass over all cues settles those.
        guard lexicon.anyNegationCue.matches(clause) else { return nil }
        var best: Range<String.Index>?
        // Every occurrence of every cue: when the first "not" is not a denial ("not helping"), a
        // later one ("and I am not wheezing") may still be.
        for (cue, pattern) in lexicon.negationCues {
            for r in pattern.ranges(in: clause) {
                guard best == nil || r.lowerBound < best!.lowerBound || (r.lowerBound == best!.lowerBound && r.upperBound > best!.upperBound)
                else { continue }
                // "nothing" denies only at the start: "he does not respond to nothing" does not.
                let tail = clause[r.upperBound...].trimmingCharacters(in: .whitespaces)
                if lexicon.leadingOnly.cues.contains(cue),
                   !lexicon.leadingOnly.before.matches(String(clause[..<r.lowerBound])) || !lexicon.leadingOnly.denies.matches(tail) { continue }
                // "I can almost not open my mouth": an ability nearly lost, said as learners say it.
                // (Only the few words before the cue are read: a long clause of many cues stays linear.)
                if let before = lexicon.inabilityBefore, before.matches(String(clause[..<r.lowerBound].suffix(40))) { continue }
                // "no longer", "not sure", "not only", "never mind", "not getting better": not a
                // denial of a symptom.
                // "has not been responding", "isn't even breathing": the same with the fillers left out.
                let tails = [tail, withoutLeadingFillers(tail)]
                if tails.contains(where: { t in lexicon.pseudoNegations.contains(where: { t.hasPrefix($0) }) }) { continue }
                // "not breathing", "not responding", "does not fade", "no wet nappies": here the
                // negation word is part of the finding, and a red flag, not its denial.
                if lexicon.findingsWithCue.contains(where: { f in f.cues.contains(cue) && tails.contains(where: f.after.matches) }) { continue }
                best = r
                break
            }
        }
        return best
    }

    /// The words after a cue without the `cue_fillers` that open them ("been", "even").
    func withoutLeadingFillers(_ tail: String) -> String {
        var words = tail.split(separator: " ", omittingEmptySubsequences: true)
        while let first = words.first, lexicon.cueFillers.contains(String(first)) { words.removeFirst() }
        return words.joined(separator: " ")
    }

    func splitList(_ clause: String) -> [String] {
        // "two or three words", "2 or 3 days": one amount, not two items (restored below).
        let clause = clause.contains(" or ") ? clause.replacingOccurrences(of: Self.amountRange, with: "$1\u{1}$2", options: [.regularExpression, .caseInsensitive]) : clause
        // Texting writes "and" as "n" or "&".
        let parts: [String] = clause.components(separatedBy: " and ").flatMap { $0.components(separatedBy: " n ") }.flatMap { $0.components(separatedBy: " & ") }
            .flatMap { $0.components(separatedBy: " or ") }
            .flatMap { $0.components(separatedBy: " with ") }
            // Texting's "w" and "w/" are "with".
            .flatMap { $0.components(separatedBy: " w/ ") }.flatMap { $0.components(separatedBy: " w ") }
            .flatMap { $0.components(separatedBy: " plus ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            // "eating and drinking normally and no vomiting" leaves "drinking normally and" before the cue.
            .map { $0.replacingOccurrences(of: #"\s+(and|or|but|with|plus)$"#, with: "", options: .regularExpression) }
            .filter { !$0.isEmpty }
        return parts.map { $0.replacingOccurrences(of: "\u{1}", with: " or ") }
    }

    static let amountRange = #"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|few|couple) or (\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)\b"#

    // MARK: demographics

    /// Words for the person a message is about, when someone writes for them.
    /// Words for a person named by their relation (no pronouns: "he 3 times"), for a bare "Dad 62";
    /// `describedPeople` adds the pronouns and the rest.
    static let familyWordList = ["son", "daughter", "boy", "girl", "baby", "child", "kid", "toddler", "lad", "lass", "little one", "husband", "wife", "partner", "mum", "mom",
        "mother", "dad", "father", "brother", "sister", "friend", "grandson", "granddaughter", "grandchild", "nephew", "niece", "boyfriend",
        "girlfriend", "flatmate", "roommate", "grandma", "grandpa", "grandmother", "grandfather", "nan", "nana", "gran", "granny", "neighbour",
        "neighbor", "colleague"]
    static let familyWords = familyWordList.joined(separator: "|")
    static let anotherPerson = #"\b(?:my|our|his|her|their)(?: \w+)? (?:"# + familyWords + #")s?\b"#

    /// Whether the message speaks of someone other than the writer ("my mum", "our little girl"):
    /// then an age it gives may be either person's.
    public func mentionsAnotherPerson(_ text: String) -> Bool { text.lowercased().regexRange(Self.anotherPerson) != nil }

    /// Whether the writer gives an age of their own ("I'm 35", "I am 68", "im 40"): in a message
    /// about someone else, only then may the age it reads be the writer's and not the patient's.
    public func statesOwnAge(_ text: String) -> Bool {
        Self.wordNumbersAsDigits(text.lowercased()).regexRange(#"\bi(?:'m|’m| am|m)\s*(?:only |just |nearly |almost |about |around )?\d{1,3}\b"#) != nil
    }
    static let describedPeople = (["he", "she", "they"] + familyWordList + ["bf", "gf", "in[- ]law", "patient", "man", "woman", "lady", "guy"]).joined(separator: "|")
    /// Someone described by the person writing, then the words before their age ("my son, who is ").
    /// ("hes 2", "shes 3", "girl whos 3": "he's" typed without its apostrophe.)
    static let describedPerson = #"\b(?:(?:"# + describedPeople + #")(?:'s| is| s|,| who is| who's| whos| aged|, who is|, who's|, whos|, aged)|hes|shes)\s+(?:only |just |nearly |almost |about |around )?"#
    /// What may follow an age said without "old": a break (punctuation, a dash, the end) or an age unit.
    static let ageEnds = #"(?=\s*(?:[.,;:!?)]|-|–|$|\n)|\s+(?:y|yo|yrs?|years?|m|f|w|with)\b)"#

    /// "my son has 3 years", "I have 35 years": an age said with "have", as several languages say it,
    /// read as "is 3 years old" (so it is no duration of 3 years); "have 2 years of …", "… left",
    /// "… ago" are not ages.
    /// A baby's weeks or months said so ("my son have 5 weeks.") are read the same way, but only
    /// where the sentence ends after the unit: "has 5 weeks of cough" and "has 2 weeks left" are not ages.
    static func ageToldWithHave(_ t: String) -> String {
        guard t.contains(" ha") else { return t }
        return t.regexReplacing(ageWithHave, with: "$1 is $2 years old").regexReplacing(babyAgeWithHave, with: "$1 is $2 $3 old")
    }

    static let babyAgeWithHave = #"\b((?:my |our |the |her |his )?(?:baby|son|daughter|boy|girl|grandson|granddaughter|newborn|little one)) (?:has|have) (\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven) (weeks?|months?)(?=\s*(?:[.,;!?]|$))"#

    static let ageWithHave = #"\b((?:i|"# + describedPeople + #")) (?:has|have) (\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten) (?:years?|yrs?)\b(?! (?:ago|of|old|left|to|until|before|since|more|now|already|in|at|on|with|without))"#

    /// A verb after a number about someone ("son 4 fell off", "grandson 3 got into my pills"): an
    /// age, not a thing counted ("gave husband 2 aspirin").
    static let verbAfterAge = #"(?=\s+(?:and\s+(?:(?:he|she|they|now|since|just)\s+)?)?(?:got|has|had|is|was|fell|ate|swallowed|took|woke|keeps|kept|been|came|just|started|vomited|threw|hit|bumped|banged|cant|can't|won't|wont|isn't|isnt|hasn't|hasnt|didn't|didnt|doesn't|doesnt)\b)"#

    /// A unit after a number means it is not an age ("she is 38 weeks", "he is 6 foot").
    static let notAUnit = #"(?!\s*(?:%|percent|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|times?|kg|lbs?|cm|mm|ml|°|degrees?|"#
        + #"c\b|f\b|am\b|pm\b|:|\.\d|feet|foot|ft\b|stone|st\b|miles?|km))"#

    /// An age's number before "old": digits, or a number in words ("six weeks old"; not "a", which
    /// is "a week old" at most), but not the last word of a compound ("sixty five years old" is not 5).
    static let ageNumber = #"(?<!(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)[- ])(\d+(?:\.\d+)?|"#
        + wordNumbers.keys.filter { $0 != "a" && $0 != "an" }.sorted { $0.count > $1.count }.joined(separator: "|") + ")"

    /// Numbers from eleven to ninety-nine written in words, as digits: "my husband is sixty-seven",
    /// "I am twenty-four" are ages like any other.
    static func wordNumbersAsDigits(_ t: String) -> String {
        guard t.range(of: #"(teen|ty)\b"#, options: .regularExpression) != nil else { return t }
        let tens = ["twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90]
        let teens = ["eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19]
        var out = t
        let pattern = #"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](one|two|three|four|five|six|seven|eight|nine))?\b|\b(eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b"#
        while let r = out.range(of: pattern, options: .regularExpression) {
            let words = out[r].split(whereSeparator: { $0 == "-" || $0 == " " }).map(String.init)
            let value = teens[words[0]] ?? (tens[words[0]] ?? 0) + (words.count > 1 ? Int(Self.wordNumbers[words[1]] ?? 0) : 0)
            out.replaceSubrange(r, with: String(value))
        }
        return out
    }

    func age(_ t: String, babyWordIsAnAge: Bool = true) -> Double? {
        let t = Self.wordNumbersAsDigits(t)
        let n = Self.ageNumber
        let patterns: [(String, Double)] = [
            (n + #"\s*(?:-|\s)?\s*(?:weeks?|wks?)[- ]old"#, 1.0 / 52),
            (n + #"\s*(?:-|\s)?\s*(?:days?)[- ]old"#, 1.0 / 365),
            (n + #"\s*(?:-|\s)?\s*(?:months?|mos?)[- ]old"#, 1.0 / 12),
            (#"(\d+(?:\.\d+)?)\s*(?:-|\s)?\s*(?:month|mo)\b"#, 1.0 / 12),
            (n + #"\s*(?:-|\s)?\s*(?:years?|yrs?)[- ]old"#, 1),
            (#"\b(\d+)\s*(?:yo|y/o|y\.o\.|yr old|yrs old|year old)\b"#, 1),
            (#"\b(\d{1,3})\s*(?:-|\s)?(?:male|female|man|woman|boy|girl)\b"#, 1),
            (#"\b(?:aged?|age of)\s*(\d+)"#, 1),
            (#"\bi(?:'m| am)\s*(\d+)\b"#, 1),
            // Texting shorthand: "35m", "22f", "29 m".
            (#"\b(\d{1,2})\s?(?:m|f|yo|y)\b(?!\s*(?:ago|later|away|walk|run|high|tall|long|drop|fall))"#, 1),
            // Someone described by the person writing: "my little boy is 2", "she's 30", "husband (44)",
            // "flatmate (28, asthmatic)", "my son, 40,". A unit after the number means it is not an age.
            (Self.describedPerson + #"(\d{1,3})\b"# + Self.notAUnit, 1),
            // A number in words only where an age ends: "my grandson, who is two, …" (not "husband's two hands").
            // ("his little girl whos three got hold of…": a verb after it, as for digits below.)
            (Self.describedPerson + #"(two|three|four|five|six|seven|eight|nine|ten)(?:"# + Self.ageEnds + "|" + Self.verbAfterAge + ")", 1),
            // Terse: "Dad 62.", "Daughter 3, temp", "grandson 2 -" (a family word, then the number, then
            // a break): "gave husband 2 aspirin" and "baby 2 wet nappies" are counts.
            (#"\b(?:"# + Self.familyWords + #")\s+(\d{1,3})"# + Self.ageEnds, 1),
            // "grandson 3 got into my pills", "son 4 fell off": a verb after the number, not a thing counted.
            (#"\b(?:"# + Self.familyWords + #")\s+(\d{1,3})"# + Self.verbAfterAge, 1),
            // "my daughter 16 years", "I am 25 years": a person and a number of years is an age.
            (Self.personAndYears, 1),
            // (Patterns are matched from a word start, so the parenthesis is a look-behind.)
            (#"(?<=\()(\d{1,3})\s*(?:m|f|yo|y|yrs?|years?)?(?:\s*,[^)]*)?\)"#, 1),
        ]
        if let m = t.regexFirstCaptures(Self.babyAndWeeks), let v = Double(m[0]) {
            let years = m[1].hasPrefix("m") ? v / 12 : v / 52
            if years < 3 { return years }
        }
        for (pattern, scale) in patterns {
            if let m = firstMatch(pattern, in: t), let v = Double(m) ?? Self.wordNumbers[m] {
                let years = v * scale
                if years < 120 { return years }
            }
        }
        if babyWordIsAnAge, t.regexRange(#"\b(newborn|new born|neonate)\b"#) != nil { return 0.05 }
        if babyWordIsAnAge, t.regexRange(#"\b(baby|infant)\b"#) != nil { return 0.5 }
        if t.regexRange(#"\btoddler\b"#) != nil { return 2 }
        if t.regexRange(#"\b(teen|teenager)\b"#) != nil { return 15 }
        if t.regexRange(#"\b(elderly|my (grand)?(mum|mom|mother|dad|father|grandma|grandpa|grandmother|grandfather) is (in her|in his) (70|80|90)s)\b"#) != nil { return 78 }
        return nil
    }

    func sex(_ t: String) -> Findings.Sex? {
        let female = #"\b(female|woman|women|girl|lady|she|her|wife|daughter|mother|mum|mom|grandmother|grandma)\b|\bmy period|\b\d{1,2} ?f\b"#
        let male = #"\b(male|man|men|boy|gentleman|he|his|him|husband|son|father|dad|grandfather|grandpa)\b|\btesticle|\bscrotum|\bpenis|\b\d{1,2} ?m\b(?! ?(ago|away|walk|run))"#
        let fi = t.regexRange(female)?.lowerBound
        let mi = t.regexRange(male)?.lowerBound
        switch (fi, mi) {
        case let (a?, b?): return a < b ? .female : .male
        case (_?, nil): return .female
        case (nil, _?): return .male
        default: return nil
        }
    }

    // MARK: time

    /// A vague count before a unit of time: "for a few weeks", "the last couple of months".
    static let vagueCount = "(a few |few |several |many |a couple of |couple of )?"

    /// Days per time unit, and the number words as regex alternatives (longest first), for
    /// `duration` and `lasted`.
    static let unitDays: [String: Double] = ["minute": 1.0 / 1440, "hour": 1.0 / 24, "day": 1, "night": 1, "week": 7, "month": 30, "year": 365]
    static let numberWordAlternatives = wordNumbers.keys.sorted { $0.count > $1.count }.joined(separator: "|")

    /// Words after "N weeks" that make it no duration: an age ("2 years old") or a pregnancy
    /// ("16 weeks pregnant", "32 weeks gone").
    static let notADuration = "old|pregnant|gestation|postpartum|gone|along"

    /// "my daughter 16 years", "I am 25 years" (no "old"): an age, captured.
    static let personAndYears = #"\b(?:"# + describedPeople + #"|i'm|i am|im)\s*[,(]?\s*(\d{1,3})\s*(?:years?|yrs?)\b(?!\s*(?:ago|back|before|earlier|now|since|later|smoker|smoking|of|in|with))"#

    /// "my baby is 7 weeks", "baby girl, 5 weeks": a baby's weeks or months are an age (a
    /// pregnancy's weeks are read apart), captured with the unit.
    static let babyAndWeeks = #"\b(?:baby|babies|newborn|infant|son|daughter|boy|girl|grandson|granddaughter|little one)(?:\s+(?:girl|boy))?\s*(?:,|is|who is|who's|'s|s)?\s*(\d{1,2})\s*(weeks?|wks?|months?)\b(?!\s*(?:ago|back|later|pregnant|now|since|of|in))"#

    func duration(_ t: String) -> Double? {
        let units = Self.unitDays
        // An age said without "old" is no duration.
        let t = t.regexReplacing(Self.personAndYears, with: " ").regexReplacing(Self.babyAndWeeks, with: " ")
        // "every 5 minutes" is how often, not how long.
        let pattern = #"(?:for|past|last|about|over|since)?\s*(?:the\s+)?(?<!every\s)(\d+(?:\.\d+)?|"# + Self.numberWordAlternatives + #")\s*(minute|hour|day|night|week|month|year)s?\b(?!\s*-?\s*("# + Self.notADuration + #"))"#
        if let m = CompiledPatterns.shared.regex(pattern).firstMatch(in: t, range: NSRange(t.startIndex..., in: t)),
           let qr = Range(m.range(at: 1), in: t), let ur = Range(m.range(at: 2), in: t) {
            let q = Double(t[qr]) ?? Self.wordNumbers[String(t[qr])] ?? 1
            return q * (units[String(t[ur])] ?? 1)
        }
        if t.regexRange(#"\b(for|over|past|the past|last) "# + Self.vagueCount + #"(weeks|fortnight)"#) != nil { return 14 }
        if t.regexRange(#"\b(for|over) (the )?(last|past) month\b|\bfor a month\b"#) != nil { return 30 }
        if let days = Self.pastUnitSpan(t) { return days }
        if t.regexRange(#"\b(for|over|past|the past|last) "# + Self.vagueCount + #"months"#) != nil { return 60 }
        if t.regexRange(#"\b(for|over|past|the past|last) (a |the past )?(year|years)"#) != nil { return 365 }
        if t.contains("since yesterday") || t.contains("last night") || t.contains("this morning") { return 1 }
        if t.regexRange(#"since (monday|tuesday|wednesday|thursday|friday|saturday|sunday|the weekend)"#) != nil { return 3 }
        if t.regexRange(#"\b(for|past) (a|one) (week|fortnight)\b"#) != nil { return 7 }
        return nil
    }

    /// How long the person says the trouble has lasted, read only from explicit spans ("for 4
    /// weeks", "over the past few months", "3 days now"): unlike `duration`, never from an age ("boy
    /// 2 year"), a pregnancy ("16 weeks pregnant") or a past event ("a few years back"), because it
    /// argues against conditions that do not last that long.
    func lasted(_ t: String) -> Double? {
        let units = Self.unitDays
        let span = #"(\d+(?:\.\d+)?|"# + Self.numberWordAlternatives + #")\s*(minute|hour|day|night|week|month|year)s?\b(?!\s*-?\s*("# + Self.notADuration + #"|ago|back|before|earlier|later))"#
        var longest: Double?
        for pattern in [#"\b(?:for|past|last|over|lasted|lasting|since)\s+(?:the\s+)?(?:past\s+|last\s+|about\s+|around\s+|almost\s+|nearly\s+|over\s+|a\s+good\s+)?"# + span,
                        span + #"\s+now\b"#,
                        // "~6 months bloating", "About 6 month I have bloating": a span opening its sentence.
                        #"(?:^|[.!?;]\s*)(?:~\s*|(?:about|around|approx(?:imately|\.)?|almost|nearly|roughly)\s+)"# + span] {
            for m in t.regexAllCaptures(pattern) where m.count >= 2 {
                let q = Double(m[0]) ?? Self.wordNumbers[m[0]] ?? 1
                longest = max(longest ?? 0, q * (units[m[1]] ?? 1))
            }
        }
        for (pattern, days) in [(#"\b(for|over|past|the past|last) "# + Self.vagueCount + #"weeks\b"#, 14.0),
                                (#"\b(for|over|past|the past|last) "# + Self.vagueCount + #"months\b"#, 60),
                                (#"\b(for|over|past|the past|last) "# + Self.vagueCount + #"years\b"#, 365)] where t.regexRange(pattern) != nil {
            longest = max(longest ?? 0, days)
        }
        if let days = Self.pastUnitSpan(t) { longest = max(longest ?? 0, days) }
        return longest
    }

    /// "past month he's needed his inhaler", "in the last week": a span with no count. Not "last
    /// week" alone (a time: "last week I fell"), nor a year ("in the past year I've had three
    /// infections" counts episodes, not how long this one has lasted).
    static func pastUnitSpan(_ t: String) -> Double? {
        for (unit, days) in [("fortnight", 14.0), ("month", 30), ("week", 7)]
        where t.regexRange(#"\b(?:(?:the|this) past|(?:in|over|for|during|within) the (?:last|past)|past) "# + unit + #"\b"#) != nil {
            return days
        }
        return nil
    }

    // MARK: vitals

    /// Temperature: a number with °C/°F, after "temp"/"temperature"/"fever of"/"T", or a bare
    /// 35.0–42.9 when the question is about a temperature. Every reading counts and the highest
    /// wins ("37.5 this morning, now 38.6" is a fever).
    func temperature(_ t: String) -> Double? {
        var readings: [Double] = []
        for m in t.regexAllCaptures(#"(\d{2,3}(?:\.\d+)?)\s*(?:°|º|deg(?:rees?)?)?\s*(c|f|celsius|fahrenheit)\b"#) {
            if let value = Double(m[0]) { readings.append(m[1].hasPrefix("f") ? (value - 32) * 5 / 9 : value) }
        }
        for m in t.regexAllCaptures(#"\b(?:temp(?:erature)?|fever of|fever is|t)\s*(?:of|is|was|at|:)?\s*(\d{2,3}(?:\.\d+)?)"#) {
            if let value = Double(m[0]) { readings.append(value > 50 ? (value - 32) * 5 / 9 : value) }
        }
        // (Where it was taken says it is a temperature too: "underarm 38.1", "forehead 37.9".)
        if t.regexRange(#"temp|fever|hot\b|thermometer|warm\b|underarm|under (his|her|the|my) arm|armpit|axilla\w*|forehead|tympanic|rectal|burning up"#) != nil {
            for m in t.regexAllCaptures(#"\b((?:3[5-9]|4[0-2])\.\d)\b(?!\s*(?:mg|ml|kg|g\b|mmol|%|weeks?|lbs?|cm|mm))"#) {
                if let value = Double(m[0]) { readings.append(value) }
            }
            // A whole degree told as a rise: "gets up to 39 in the evenings", "spiked to 40".
            for m in t.regexAllCaptures(#"\b(?:up to|hit|hits|hitting|reached|reaches|spiked to|spikes to|spiking to|peaked at|peaks at|went to|goes to|gets to|got to|climbed to)\s*((?:3[89]|4[0-2]))\b(?![.\d]|\s*(?:mg|ml|kg|g\b|mmol|%|weeks?|years?|yrs?|lbs?|cm|mm|hours?|hrs?|mins?|minutes?|times|days?))"#) {
                if let value = Double(m[0]) { readings.append(value) }
            }
        }
        return readings.filter { (30...46).contains($0) }.max()
    }

    func vitals(_ t: String) -> Findings.Vitals {
        var v = Findings.Vitals()
        v.temperatureC = temperature(t)
        if let m = firstMatch(#"(\d{2,3})\s*(?:bpm|beats per minute|beats a minute|beats/min)"#, in: t) ?? firstMatch(#"\b(?:hr|heart rate|pulse)\s*(?:of|is|was|at|:)?\s*(\d{2,3})\b"#, in: t) {
            v.heartRate = Double(m)
        }
        if let m = t.regexFirstCaptures(#"\b(\d{2,3})\s*/\s*(\d{2,3})\b(?!\s*(?:days?|weeks?))"#), let s = Double(m[0]), let d = Double(m[1]),
           (60...280).contains(s), (30...180).contains(d), s > d {
            v.systolic = s; v.diastolic = d
        }
        v.oxygenSaturation = oxygenSaturation(t)
        v.peakFlowPercent = peakFlowPercent(t)
        return v
    }

    /// Oxygen saturation: the reading given after an oxygen word, before another vital sign is named
    /// ("sats 88 pulse 120"), any reading told as a change after it ("dropped from 96 to 88",
    /// "normally 94, stuck at 85"), or "92% on room air"; the lowest wins, since a fall is what
    /// matters. A number told with a pulse, a pressure, a time or an age is not one ("oxygen fine
    /// but pulse dropped to 55", "sats 97, he's 84").
    func oxygenSaturation(_ t: String) -> Double? {
        var readings: [Double] = []
        for m in t.regexAllCaptures(#"(\d{2,3})\s*%\s*(?:on room air|oxygen|o2|sat)"#) { if let v = Double(m[0]) { readings.append(v) } }
        // "My oximeter. It says 85%": a percentage soon after the word, across a sentence break.
        // ("the finger probe is reading 90%": the clip on the finger is the oximeter.)
        for m in t.regexAllCaptures(#"\b(?:oximeter|oxymeter|sats?|oxygen|o2|spo2|(?:finger|pulse|sats|oxygen) (?:probe|clip|monitor|sensor))\b\D{0,25}?(\d{2,3})\s*%"#) { if let v = Double(m[0]) { readings.append(v) } }
        let otherVital = #"pulse(?! ox)|heart|hr|bpm|bp|blood pressure|pressure|temp|temperature|weight|sugar|glucose|peak flow|breaths?|tank|cylinder|concentrator|litres?|liters?|years?|aged?|he'?s|she'?s|i'?m|i am"#
        let number = #"(?<![\d./:])(\d{2,3})(?![\d.:]|\s*/\s*\d|\s*(?:over\b|bpm|beats|breaths|years?|yrs?|y/?o\b|mins?\b|minutes?|hours?|hrs?|kg|lbs?|weeks?|days?|mg|ml|mmol|c\b|f\b|°|%\s*of|am\b|pm\b))"#
        for m in t.regexAllCaptures(#"\b(?:spo2|sp02|sats?|saturations?|o2|oxygen|oximeter|pulse ox)\b((?:(?!\b(?:"# + otherVital + #")\b)[^.;!?\n]){0,80})"#) {
            let segment = m[0]
            // The first number, and any told as a change or a reading ("to 88", "now 89", "says 86").
            if let first = segment.regexFirstCaptures(number), let v = Double(first[0]) { readings.append(v) }
            for n in segment.regexAllCaptures(#"\b(?:to|now|today|tonight|then|only|reads?|reading|says|showing|shows|at|down to|stuck at)\s+"# + number) {
                if let v = Double(n[0]) { readings.append(v) }
            }
        }
        return readings.filter { (50...100).contains($0) }.min()
    }

    /// A peak flow given as a percentage of the person's best, read from the whole question (the
    /// clause splitter would part "peak flow 180 (40% of best)"), or in words ("less than half her
    /// best", "about a third of normal"; words first). "Less than 50%" reads as just under 50, so it
    /// counts as under half.
    func peakFlowPercent(_ t: String) -> Double? {
        let below = ["less than ", "under ", "below ", "lower than "]
        let fractions: [String: Double] = ["half": 50, "a third": 33, "a quarter": 25]
        let forms = [(qualifiers: below + ["about ", "around ", "only "], amount: #"(half|a third|a quarter)\b"#),
                     (qualifiers: below, amount: #"(\d{1,3})\s*(?:%|per ?cent)"#)]
        for form in forms {
            let pattern = #"peak ?flow.{0,40}?("# + form.qualifiers.joined(separator: "|") + #")?\b"# + form.amount
            guard let m = t.regexFirstCaptures(pattern), let value = fractions[m[1]] ?? Double(m[1]) else { continue }
            return below.contains(m[0]) ? value - 0.01 : value
        }
        // A reading beside the person's best: "peak flow 320, best 460", "best is 500, today 240".
        let reading = #"peak ?flow\D{0,20}?(\d{2,3})\b[^.\d]{0,30}?\b(?:best|normal|usual|pb)\b\D{0,12}?(\d{2,3})\b"#
        let bestFirst = #"\b(?:best|normal|usual|pb)\b\D{0,20}?(\d{2,3})\b[^.\d]{0,30}?\b(?:now|today|tonight|this morning|only|peak ?flow)\b\D{0,12}?(\d{2,3})\b"#
        if let m = t.regexFirstCaptures(reading), let now = Double(m[0]), let best = Double(m[1]), best >= 100, now < best * 1.5 {
            return (100 * now / best).rounded()
        }
        if t.contains("peak"), let m = t.regexFirstCaptures(bestFirst), let best = Double(m[0]), let now = Double(m[1]), best >= 100, now < best * 1.5 {
            return (100 * now / best).rounded()
        }
        return nil
    }

    // MARK: history

    func history(_ t: String) -> [String] {
        lexicon.history.compactMap { hasAffirmedMatch($0.pattern, in: t) ? $0.name : nil }
    }

    /// A clause that only states a long-term condition ("I have asthma", "had type 2 diabetes 10
    /// yrs"): every word is part of one of `history_statement`'s history terms, a number, or one of
    /// its words of stating it (rules/findings.yaml). It says what the person
    /// lives with, not what is happening now, so no red-flag concept reads it by meaning (a severe
    /// asthma attack sits close to "I have asthma").
    public func statesHistoryOnly(_ clause: String) -> Bool {
        var t = clause.lowercased()
        var found = false
        for (name, pattern) in lexicon.history where lexicon.historyStatement.terms.contains(name) {
            for r in pattern.ranges(in: t).reversed() { t.replaceSubrange(r, with: " "); found = true }
        }
        guard found else { return false }
        return TextMatch.words(t).allSatisfy { lexicon.historyStatement.words.contains($0) || $0.allSatisfy(\.isNumber) }
    }

    /// "not on blood thinners", "no history of diabetes" and "never had heart disease" deny the
    /// history they name (`history_denial` in rules/negation.yaml, read in the 40 characters before);
    /// "is this mouth cancer?" and "worried I might have diabetes" only ask (`history_doubt`).
    func hasAffirmedMatch(_ pattern: CompiledPattern, in t: String) -> Bool {
        for r in pattern.ranges(in: t) {
            let before = t[t.index(r.lowerBound, offsetBy: -min(40, t.distance(from: t.startIndex, to: r.lowerBound)))..<r.lowerBound]
            if !lexicon.historyDenial.matches(String(before)) && !lexicon.historyDoubt.matches(String(before)) { return true }
        }
        return false
    }

    // MARK: regex helpers

    func firstMatch(_ pattern: String, in t: String) -> String? { t.regexFirstCaptures(pattern)?.first }

}
