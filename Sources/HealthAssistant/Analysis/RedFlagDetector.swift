import Foundation

/// Finds red flags in the findings: the built-in safety rules, vital signs, and the red-flag
/// phrases of the conditions under consideration (lexical: every content word of the phrase in
/// one positive clause). Each flag names the clause that triggered it.
struct RedFlagDetector: Sendable {
    struct Hit: Sendable {
        var flag: String
        var clause: String
        var level: TriageLevel
        var crisis: Bool
        var condition: String?
    }

    func detect(_ f: Findings, candidates: [ConditionProfile]) -> [Hit] {
        var hits: [Hit] = []
        let positive = f.positive
        let allClauses = f.clauses.map(\.text)
        for rule in SafetyRules.rules {
            let pool = rule.ignoresNegation ? allClauses + [f.text.lowercased()] : positive
            var trigger: String? = rule.all.isEmpty ? "vital signs" : nil
            var ok = true
            for pattern in rule.all {
                let regex = CompiledPatterns.shared.regex(pattern)
                guard let clause = pool.first(where: { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }) else { ok = false; break }
                if trigger == nil { trigger = clause }
            }
            if ok, let extra = rule.extra, !extra(f) { ok = false }
            if ok { hits.append(Hit(flag: rule.flag, clause: trigger ?? f.text, level: rule.level, crisis: rule.crisis, condition: nil)) }
        }
        hits += vitalSigns(f)
        // Corpus red flags of the leading conditions.
        let clauseStems = positive.map { Set(TextMatch.stems($0)) }
        for condition in candidates {
            for flag in condition.redFlags {
                let stems = TextMatch.stems(flag)
                guard stems.count >= 2 else { continue }
                if let i = clauseStems.firstIndex(where: { s in stems.allSatisfy(s.contains) }) {
                    hits.append(Hit(flag: flag, clause: positive[i], level: condition.triage == .emergency ? .emergency : .urgent, crisis: false, condition: condition.id))
                }
            }
        }
        // One entry per flag text.
        var seen = Set<String>()
        return hits.filter { seen.insert($0.flag.lowercased()).inserted }
    }

    func vitalSigns(_ f: Findings) -> [Hit] {
        var hits: [Hit] = []
        let v = f.vitals
        if let s = v.oxygenSaturation {
            if s < 92 { hits.append(Hit(flag: "oxygen saturation \(Int(s))% (below 92%)", clause: "SpO2 \(Int(s))%", level: .emergency, crisis: false)) }
            else if s < 95 { hits.append(Hit(flag: "oxygen saturation \(Int(s))% (below 95%)", clause: "SpO2 \(Int(s))%", level: .urgent, crisis: false)) }
        }
        if let t = v.temperatureC {
            let shown = String(format: "%.1f °C", t)
            if t >= 41 || t < 35 { hits.append(Hit(flag: "temperature \(shown)", clause: shown, level: .emergency, crisis: false)) }
            else if t >= 38, (f.ageYears ?? 99) < 0.25 { hits.append(Hit(flag: "fever \(shown) in a baby under 3 months", clause: shown, level: .emergency, crisis: false)) }
            else if t >= 39.5 || (t >= 38 && (f.ageYears ?? 99) < 1) { hits.append(Hit(flag: "high temperature \(shown)", clause: shown, level: .urgent, crisis: false)) }
        }
        if let hr = v.heartRate {
            if hr >= 150 || hr <= 40 { hits.append(Hit(flag: "heart rate \(Int(hr)) per minute", clause: "\(Int(hr)) bpm", level: .emergency, crisis: false)) }
            else if hr >= 120, (f.ageYears ?? 30) >= 12 { hits.append(Hit(flag: "fast heart rate \(Int(hr)) per minute", clause: "\(Int(hr)) bpm", level: .urgent, crisis: false)) }
        }
        if let s = v.systolic, let d = v.diastolic {
            let shown = "\(Int(s))/\(Int(d)) mmHg"
            if s < 90 { hits.append(Hit(flag: "low blood pressure \(shown)", clause: shown, level: .emergency, crisis: false)) }
            else if s >= 180 || d >= 120 {
                // Very high pressure with symptoms of organ damage is an emergency; alone it needs same-day care.
                let symptomatic = f.positive.contains { $0.regexRange(#"headache|chest|breath|vision|confus|weak|numb"#) != nil }
                hits.append(Hit(flag: "very high blood pressure \(shown)", clause: shown, level: symptomatic ? .emergency : .urgent, crisis: false))
            }
        }
        return hits
    }
}

/// The safety rules' regular expressions, compiled once. NSRegularExpression is immutable and
/// safe to use from several threads once built; the dictionary is filled under a lock.
///
/// Every pattern matches only from the start of a word: the rules are written as word stems
/// ("dizz", "confus"), and a stem found inside another word is a false alarm — "rta" (road
/// traffic accident) inside "uncomfortable", "bee" inside "been", "fit" inside "benefit" once
/// made ordinary questions emergencies. A pattern that must stop at a word's end says `\b`.
final class CompiledPatterns: @unchecked Sendable {
    static let shared = CompiledPatterns()
    private let lock = NSLock()
    private var cache: [String: NSRegularExpression] = [:]

    func regex(_ pattern: String) -> NSRegularExpression {
        lock.lock(); defer { lock.unlock() }
        if let r = cache[pattern] { return r }
        // Patterns are constants of this module; a bad one is a programming error caught by the tests.
        // The group keeps the pattern's own capture numbers.
        let r = try! NSRegularExpression(pattern: #"\b(?:"# + pattern + ")")
        cache[pattern] = r
        return r
    }
}

extension String {
    /// The first match of a regular expression, compiled once per pattern (compiling an ICU regex
    /// costs more than running it, and these patterns run on every question).
    func regexRange(_ pattern: String) -> Range<String.Index>? {
        let regex = CompiledPatterns.shared.regex(pattern)
        guard let m = regex.firstMatch(in: self, range: NSRange(startIndex..., in: self)) else { return nil }
        return Range(m.range, in: self)
    }

    /// The capture groups of the first match ("" for a group that did not take part), or nil.
    func regexFirstCaptures(_ pattern: String) -> [String]? {
        CompiledPatterns.shared.regex(pattern).firstMatch(in: self, range: NSRange(startIndex..., in: self)).map(captures)
    }

    /// The capture groups of every match, in order.
    func regexAllCaptures(_ pattern: String) -> [[String]] {
        CompiledPatterns.shared.regex(pattern).matches(in: self, range: NSRange(startIndex..., in: self)).map(captures)
    }

    private func captures(_ m: NSTextCheckingResult) -> [String] {
        (1..<m.numberOfRanges).map { i in Range(m.range(at: i), in: self).map { String(self[$0]) } ?? "" }
    }
}
