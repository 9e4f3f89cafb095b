/// Which way a sentence points about an ability. Sentence embeddings are blind to negation: "I can
/// move it every which way" lies as close to "can't move it at all" as "I can't move it" does. So a
/// clause that says the person can do something never meets a finding worded as that ability lost;
/// it denies the finding instead. Words from `polarity` in rules/negation.yaml.
public struct AbilityPolarity: Sendable {
    /// "can", "able to", "managed to".
    let ability: CompiledPattern
    /// "can't", "unable", "not able".
    let inability: CompiledPattern
    /// Any negation cue ("I can, but not for long"): the parser's `cues`.
    let negation: CompiledPattern

    /// A clause the person does not deny that says they can do something, and no inability with it.
    /// A question says nothing either way: "can I" / "could he", or a sentence of `text` (the whole
    /// message) that ends in "?" after the clause ("I can stretch and fix it?"). Nor does an ability
    /// the message goes on to limit ("she can talk but it's slurred").
    func affirmsAbility(_ clause: String, in text: String? = nil) -> Bool {
        let lower = clause.lowercased()
        guard ability.matches(lower), !inability.matches(lower), !negation.matches(lower),
              lower.range(of: #"\b(can|could) (i|you|he|she|we|they|it)\b"#, options: .regularExpression) == nil else { return false }
        guard let text = text?.lowercased(), let at = text.range(of: lower) else { return true }
        // "she can talk but it's slurred", "he can walk, though only a few steps": a partial ability.
        let after = text[at.upperBound...].drop(while: { $0 == " " || $0 == "," })
        if after.range(of: #"^(but|though|although|yet|except|only)\b"#, options: .regularExpression) != nil { return false }
        return text[at.upperBound...].first(where: { ".!?\n".contains($0) }) != "?"
    }

    /// A finding worded as an ability lost ("can't put weight on it", "unable to lift the arm").
    func saysLoss(_ phrase: String) -> Bool { inability.matches(phrase.lowercased()) }
}
