/// Combines red flags, the leading conditions and the person's circumstances into one level.
/// Red flags can only raise the level; nothing lowers an emergency.
struct TriagePolicy: Sendable {
    struct Decision: Sendable { var level: TriageLevel; var reason: String }

    func decide(_ f: Findings, flags: [RedFlagDetector.Hit], ranked: [(profile: ConditionProfile, score: Double, keyCoverage: Double)]) -> Decision {
        if let worst = flags.max(by: { $0.level < $1.level }), worst.level == .emergency {
            return Decision(level: .emergency, reason: "Red flag: \(worst.flag) (from \"\(worst.clause)\").")
        }
        var level = TriageLevel.selfCare
        var reason = "No red flags found and the leading conditions can usually be managed at home."
        if let top = ranked.first {
            level = top.profile.triage
            if level == .emergency {
                // The best fit can be an emergency, but none of its warning signs was described:
                // same-day care, with the signs that would make it an emergency spelled out.
                level = .urgent
                let signs = top.profile.redFlags.prefix(3).joined(separator: "; ")
                return Decision(level: max(level, flags.map(\.level).max() ?? .selfCare),
                                reason: "\(top.profile.name) fits best and can be serious; no emergency warning signs were described. Get seen today, and call emergency services if you notice: \(signs).")
            }
            // A dangerous runner-up that fits well keeps the answer at "urgent" at least.
            if let serious = ranked.prefix(3).dropFirst().first(where: { $0.profile.triage >= .urgent && $0.score >= top.score * 0.9 && $0.keyCoverage >= 0.5 }),
               serious.profile.triage > level {
                level = min(.urgent, serious.profile.triage)
                reason = "\(top.profile.name) fits best, but \(serious.profile.name) fits almost as well and needs prompt assessment."
            } else {
                reason = "The best-fitting condition, \(top.profile.name), usually needs: \(top.profile.triage.rawValue)."
            }
        }
        if let urgent = flags.first(where: { $0.level == .urgent }), level < .urgent {
            level = .urgent
            reason = "Warning sign: \(urgent.flag) (from \"\(urgent.clause)\")."
        }
        let fever = f.positive.contains { $0.contains("fever") || $0.contains("temperature") } || (f.vitals.temperatureC ?? 0) >= 38
        if fever, (f.ageYears ?? 99) < 1, level < .urgent {
            level = .urgent
            reason = "A fever in a baby under one year needs a same-day check."
        }
        if let age = f.ageYears, age >= 80, level == .selfCare, !f.positive.isEmpty {
            level = .routine
            reason += " At 80 or older, a check with your doctor is wiser than self-care alone."
        }
        if f.pregnant, level == .selfCare {
            level = .routine
            reason += " In pregnancy, mention any new symptom to your midwife or doctor."
        }
        if let days = f.durationDays, days >= 7, level == .selfCare {
            level = .routine
            reason += " Symptoms lasting a week or more without improving should be checked by a doctor."
        }
        let risky = ["diabetes", "weakened immunity", "heart disease", "on blood thinners", "kidney disease", "cancer"]
        if level == .selfCare, let h = f.history.first(where: risky.contains) {
            level = .routine
            reason += " With \(h), a check with your doctor is wiser than self-care alone."
        }
        let lower = f.text.lowercased()
        if level == .selfCare, lower.regexRange(#"mole|lump|getting bigger|growing|changed colou?r|(blood|red streaks?|bleeding)\b.{0,20}\b(on|in) (the )?(toilet|tissue|stool|poo|urine|pee)|(rectal|back passage) bleed|bleeding from (my|the|his|her) (bottom|back passage)|not working|isn'?t working|aren'?t working|keeps coming back|keeps (flaring|happening|returning)|even with|despite (using|taking|treatment)|only help(s)? a (bit|little)|for (weeks|months)|unexplained weight loss"#) != nil {
            level = .routine
            reason += " Changes like this should be checked by a doctor."
        }
        return Decision(level: level, reason: reason)
    }
}
