/// The parser's clinical vocabulary, from `rules/negation.yaml` and `rules/findings.yaml`: how
/// negation is read, and the words for history, onset, severity and pregnancy.
public struct FindingsLexicon: Sendable {
    /// Negation cues, each as a whole-word pattern.
    var negationCues: [(cue: String, pattern: CompiledPattern)]
    /// All the cues in one pattern: a quick test that a clause holds any.
    var anyNegationCue: CompiledPattern
    /// What may follow a cue without making it a denial (prefixes of the rest of the clause).
    var pseudoNegations: [String]
    /// Words that may stand between a cue and what it is about ("has not *been* responding", "isn't
    /// *even* breathing"): pseudo-negations and findings with a cue are also tried without them.
    var cueFillers: Set<String> = []
    /// Words that end a short clause saying all is well ("breathing normally"): a cue after the finding.
    var reassurances: Set<String>
    var reassuranceMaxWords: Int
    /// A whole clause saying an ability the person still has ("I can swallow"): a denial of trouble with it.
    var abilities: CompiledPattern
    /// A clause saying the person can do something (`ability`) and a finding worded as that ability
    /// lost (`inability`): the embeddings cannot tell them apart (`AnalysisInput.polarity`).
    public var polarity: AbilityPolarity?
    /// Opposite ends of a scale (small against large, shallow against deep): a clause at one end
    /// never meets a phrase at the other by meaning (`AnalysisInput.contrasts`).
    public var contrasts: FindingContrasts?
    /// Greetings and courtesies said as a whole clause ("good morning to you", "hope you are
    /// well"): no health words, whatever a condition's name shares with them (morning sickness).
    public var courtesy: CompiledPattern?
    /// The words before a denial by one of these cues, up to `maxWords`, are what it is about (`Clause.literalOnly`).
    var denialSubject: (cues: Set<String>, maxWords: Int)
    /// Cues whose denial stops at the first "and" or "with" (an auxiliary's: "didn't take my inhaler and can't breathe").
    var narrowScopeCues: Set<String>
    /// Words that turn a reassurance into a change ("faster than normal", "hardly feeding well").
    var reassuranceBreakers: Set<String>
    /// Findings that hold their own cue ("not breathing"): the cues, and what must follow.
    var findingsWithCue: [(cues: Set<String>, after: CompiledPattern)]
    var historyDenial: CompiledPattern
    /// A question or fear before a history term ("is this cancer", "worried I have diabetes"): no history.
    var historyDoubt: CompiledPattern
    var pregnancyDenial: CompiledPattern
    /// History names in file order, with their patterns.
    var history: [(name: String, pattern: CompiledPattern)]
    /// Long-term conditions whose bare statement is no event, and the words that may state them.
    var historyStatement: (terms: Set<String>, words: Set<String>)
    var sudden: CompiledPattern
    var gradual: CompiledPattern
    var severe: CompiledPattern
    var pregnant: CompiledPattern
    /// A pregnancy said by its weeks alone ("I'm 29 weeks", "my wife is 37 weeks"): pregnant, and
    /// those weeks are no duration.
    var pregnancyWeeks: CompiledPattern
    /// Recently given birth ("had our baby 4 days ago"): the "baby" is no age of the person.
    var postpartum: CompiledPattern
    /// The message is about the baby ("he is yellow", feeds, nappies): a birth it mentions is not the patient's.
    var babyIsPatient: CompiledPattern
    /// Words that make a clause a fear or a guess ("worried it's", "could it be"): a clause with
    /// them that names a condition is set aside from matching by meaning (`AskPipeline.settingAsideNamedFears`).
    var hypothesis: CompiledPattern
    /// Words that make a clause someone else's (another person's guess, something read, a
    /// relative's illness), and words that keep it the person's own (a professional's view, an event now).
    /// `ahead`: a question about what to watch for later ("how will I know if I'm getting
    /// dehydrated"), set aside like another's words whether or not it names a condition.
    var reported: (says: CompiledPattern, unless: CompiledPattern, ahead: CompiledPattern?)
    /// Idioms said again in the library's words, as derived clauses ("been sick" → "vomiting");
    /// `replaces`: the idiom's words mislead every reader, so the clause is read as `says` alone
    /// ("can't breathe through my nose" is a blocked nose, not a struggle to breathe).
    var restatements: [(pattern: CompiledPattern, says: String, replaces: Bool)]
    /// A measured temperature from this many °C is also said as a finding, in these words.
    /// Below `normalBelowC` a reading is normal: a clause that only gives it (its stems all
    /// `readingWords` or digits) says no finding.
    var measuredFever: (atLeastC: Double, says: String, normalBelowC: Double, readingWords: Set<String>)
    var explicitDenial: ExplicitDenial
    /// Cues that deny only when they open the clause and a known denial follows: the cues, what
    /// may stand before them, and what must follow.
    var leadingOnly: (cues: Set<String>, before: CompiledPattern, denies: CompiledPattern)
    /// Words just before a cue that make it an ability lost, not a denial ("I can almost not open my mouth").
    var inabilityBefore: CompiledPattern?
    /// Common misspellings and the words they are read as (`rules/spellings.yaml`), lower-cased.
    var spellings: [String: String] = [:]

    public var historyNames: [String] { history.map(\.name) }
}
