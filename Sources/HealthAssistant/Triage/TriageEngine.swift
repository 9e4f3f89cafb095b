/// The one place that decides urgency. It takes every signal as evidence — safety rules and vital
/// signs, the red flags of candidate conditions, crisis conditions, the differential, and the
/// self-care floors — and returns the level with the evidence that set it. Red flags only raise
/// the level; nothing lowers an emergency. Its constants are `rules/triage-policy.yaml`.
public struct TriageEngine: Sendable {
    public struct Decision: Sendable {
        public var level: TriageLevel
        public var reason: String
        /// The evidence that set the level, strongest first.
        public var decidedBy: [TriageEvidence]
    }

    /// A ranked condition as triage sees it.
    public struct Candidate: Sendable {
        public var profile: ConditionProfile
        public var score: Double
        public var keyCoverage: Double
        public var matched: Int = 0
        /// Its findings the person denied ("no pain", "didn't black out").
        public var contradicted: Int = 0
        /// The person has had the symptoms far longer than it usually lasts.
        public var outlasted = false
        /// The person's age lies well outside the ages it is seen at (`cant_miss.age_margin_years`).
        public var outOfAge = false
        /// The clauses its matches rest on (nil: not known).
        public var supportingClauses: [String]? = nil
        /// A safety rule that reads its sign matched and its exception holds (`cant_miss.gives_way_to`).
        public var givesWay = false
        /// Nothing the person said argues against it: no denied finding, a plausible course and age, no rule's exception.
        var uncontested: Bool { contradicted == 0 && !outlasted && !outOfAge && !givesWay }
    }

    let policy: TriagePolicyData

    public init(policy: TriagePolicyData) { self.policy = policy }

    /// The differential keeps people safe: a can't-miss condition among the leading ones with its
    /// key findings present is evidence at its own level when its typical picture is there, else at
    /// the policy's `otherwise` level (urgent), with its flags to watch for.
    func cantMissEvidence(_ ranked: [Candidate]) -> [TriageEvidence] {
        let p = policy.cantMiss
        let best = ranked.first?.score ?? 0
        return ranked.prefix(p.withinTop).compactMap { c in
            // A condition far outside the patient's age (sepsis in babies for a man of 62) is not possible.
            guard c.profile.cantMiss || c.profile.triage == .emergency, c.keyCoverage >= p.someKeyCoverage, !c.outOfAge else { return nil }
            // A picture the person partly denies ("painless lump, no swelling") is not typical, nor
            // one far outscored by the leading condition (cold sores' tingling lip and blister
            // also meet Stevens-Johnson syndrome's blistering and mouth sores).
            let typical = c.keyCoverage >= p.typicalKeyCoverage && c.matched >= p.typicalMinMatched && c.uncontested
                && best - c.score <= p.maxScoreGap
            let level = typical ? max(c.profile.triage, p.otherwise) : min(c.profile.triage, p.otherwise)
            guard level >= .urgent else { return nil }
            let signs = c.profile.redFlags.filter { $0.level == .emergency }.prefix(3).map(\.flag)
            let flag = typical ? "\(c.profile.name): its typical picture is described"
                : "\(c.profile.name) is possible" + (signs.isEmpty ? "" : "; call emergency services now if: " + signs.joined(separator: "; "))
            return TriageEvidence(kind: .differential, level: level, flag: flag, clause: "", id: c.profile.id, condition: c.profile.id)
        }
    }

    /// Why self-care alone is not enough, if it is not: self-care needs positive evidence, so a
    /// leading mild condition that fits poorly is a guess (`self_care_fit`); or one of the policy's
    /// floors holds (age, pregnancy, duration, history, changes to check).
    func selfCareFloor(_ f: Findings, top: Candidate?) -> (id: String, reason: String)? {
        if let top, top.keyCoverage < policy.selfCareMinKeyCoverage { return ("weak-fit", policy.selfCareWeakFitReason) }
        let input = RuleInput(f)
        return policy.selfCareFloor.first { $0.when.holds(input) }.map { ($0.id, $0.reason) }
    }

    /// Whether a safety rule reads the leading condition's words as same-day care: an urgent rule
    /// fired, and every clause the condition's matches rest on is one the urgent rules read. A rule
    /// draws its line only over what it reads: "new floaters" is urgent, but a painful leg that is
    /// also numb and weak is more than the calf rule's "painful leg". Unknown support: any urgent rule.
    static func urgentRuleReadsAll(of top: Candidate, flags: [TriageEvidence]) -> Bool {
        let read = flags.filter { $0.kind == .rule && $0.level == .urgent }.flatMap { $0.readClauses.isEmpty ? [$0.clause] : $0.readClauses }
            .map { $0.lowercased() }
        guard !read.isEmpty else { return false }
        guard let support = top.supportingClauses, !support.isEmpty else { return true }
        return support.allSatisfy { s in let s = s.lowercased(); return read.contains { $0.contains(s) } }
    }

    /// "Red flag: stiff neck with fever (from "stiff neck")." — or the differential's own words.
    static func because(_ e: TriageEvidence, _ label: String) -> String {
        e.clause.isEmpty ? e.flag + "." : "\(label): \(e.flag) (from \"\(e.clause)\")."
    }

    /// The level for a question with no recognisable finding: not a guess at something benign, but
    /// a request to describe it, with what to do in an emergency.
    public func notUnderstood() -> Decision {
        Decision(level: policy.notUnderstood, reason: "No symptom or health problem could be recognised in the message, so no condition is suggested. Describe what you feel, where, since when and how bad it is.",
                 decidedBy: [TriageEvidence(kind: .floor, level: policy.notUnderstood, flag: "not understood", clause: "", id: "not-understood")])
    }

    public func decide(_ f: Findings, flags: [TriageEvidence], ranked: [Candidate]) -> Decision {
        let flags = flags + cantMissEvidence(ranked)
        let emergencies = flags.filter { $0.level == .emergency }
        if let first = emergencies.first {
            return Decision(level: .emergency, reason: Self.because(first, "Red flag"), decidedBy: emergencies)
        }
        var level = TriageLevel.selfCare
        var reason = "No red flags found and the leading conditions can usually be managed at home."
        var decidedBy: [TriageEvidence] = []
        if let top = ranked.first {
            let leading = TriageEvidence(kind: .differential, level: top.profile.triage, flag: top.profile.name, clause: "", id: top.profile.id,
                                         condition: top.profile.id)
            if top.profile.triage == .emergency {
                // The best fit is an emergency condition, though none of its warning signs was
                // described: the policy's level, with its signs spelled out. When the person denies
                // some of its findings or has had them far longer than it lasts, when its matches
                // rest on too few things said, or when a safety rule reads the same words as same-day
                // care (rules draw that line on purpose: new floaters are urgent, a curtain over the
                // vision is an emergency), the can't-miss `otherwise` level instead.
                var evidence = leading
                let ruleSaysUrgent = Self.urgentRuleReadsAll(of: top, flags: flags)
                evidence.level = top.uncontested && !ruleSaysUrgent && top.matched >= policy.leadingEmergencyMinMatched
                    && top.keyCoverage >= policy.leadingEmergencyMinKeyCoverage
                    ? policy.leadingEmergencyWithoutSign : min(policy.leadingEmergencyWithoutSign, policy.cantMiss.otherwise)
                let urgentFlags = flags.filter { $0.level >= evidence.level }
                let signs = top.profile.redFlags.prefix(3).map(\.flag).joined(separator: "; ")
                let reason = evidence.level == .emergency
                    ? "\(top.profile.name) fits best, and it needs emergency care. Call emergency services now" + (signs.isEmpty ? "." : "; its warning signs include: \(signs).")
                    : "\(top.profile.name) fits best and can be serious; no emergency warning signs were described. Get seen today, and call emergency services if you notice: \(signs)."
                return Decision(level: max(evidence.level, flags.map(\.level).max() ?? .selfCare), reason: reason, decidedBy: [evidence] + urgentFlags)
            }
            level = top.profile.triage
            decidedBy = [leading]
            // A dangerous runner-up that fits well (nearly as well as the first, or with all its key
            // findings and none denied) keeps the answer at its level, up to the cap.
            let r = policy.runnerUp
            func close(_ c: Candidate) -> Bool { c.score >= top.score * r.scoreRatio && c.keyCoverage >= r.minKeyCoverage }
            if let serious = ranked.prefix(r.withinTop).dropFirst().first(where: {
                   $0.profile.triage >= .urgent && (close($0) || $0.keyCoverage >= r.fullKeyCoverage && $0.uncontested) }),
               serious.profile.triage > level {
                level = min(r.atMost, serious.profile.triage)
                reason = "\(top.profile.name) fits best, but \(serious.profile.name) "
                    + (close(serious) ? "fits almost as well" : "also fits, with its main signs described") + " and needs prompt assessment."
                decidedBy = [TriageEvidence(kind: .differential, level: level, flag: serious.profile.name, clause: "", id: serious.profile.id,
                                            condition: serious.profile.id)]
            } else {
                reason = "The best-fitting condition, \(top.profile.name), usually needs: \(top.profile.triage.rawValue)."
            }
        }
        let urgentFlags = flags.filter { $0.level == .urgent }
        if let urgent = urgentFlags.first, level < .urgent {
            level = .urgent
            reason = Self.because(urgent, "Warning sign")
            decidedBy = urgentFlags
        } else if level == .urgent {
            decidedBy += urgentFlags
        }
        if level == .selfCare, let floor = selfCareFloor(f, top: ranked.first) {
            level = .routine
            reason += " " + floor.reason
            decidedBy = [TriageEvidence(kind: .floor, level: .routine, flag: floor.reason, clause: "", id: floor.id)]
        }
        return Decision(level: level, reason: reason, decidedBy: decidedBy)
    }
}
