import Linear

/// Finds red-flag concepts in what a person wrote by meaning rather than wording: every positive
/// clause (and the whole question, when it denies nothing) against every concept's exemplars in
/// one matrix product; a concept counts when a text's nearest exemplars are close enough and
/// stand clear of the concept's nearest near miss. Denied clauses are never scored, and the near
/// misses include denied and benign look-alikes, so "no chest pain" and "chest hurts when I press
/// on it" stay quiet. It reports evidence; the triage engine decides.
struct ConceptDetector: Sendable {
    let policy: ConceptPolicy

    /// One scored text: its best concept score and the near-miss score it had to beat.
    struct Score: Sendable { var concept: Int; var similarity: Float; var nearMiss: Float }

    /// `vectors` row i embeds `texts[i]`.
    func detect(texts: [String], vectors: Matrix, model: ConceptModel) -> [TriageEvidence] {
        evidence(texts: texts, scores: scores(vectors: vectors, model: model), model: model)
    }

    /// The concepts among scores already computed, reading only the rows `rows` accepts, at
    /// `minSimilarity` (the policy's bar when nil): one scoring serves several readings.
    func evidence(texts: [String], scores: [(row: Int, score: Score)], model: ConceptModel,
                  rows: (Int) -> Bool = { _ in true }, minSimilarity: Float? = nil, margin: Float? = nil) -> [TriageEvidence] {
        var best: [Int: (score: Float, text: String)] = [:]
        for s in scores where rows(s.row) && fires(s.score, minSimilarity: minSimilarity ?? policy.minSimilarity, margin: margin ?? policy.margin) {
            if best[s.score.concept].map({ s.score.similarity > $0.score }) ?? true { best[s.score.concept] = (s.score.similarity, texts[s.row]) }
        }
        return best.keys.sorted().map { c in
            let concept = model.concepts[c]
            return TriageEvidence(kind: .concept, level: concept.level, flag: concept.flag, clause: best[c]!.text, id: concept.id, crisis: concept.crisis)
        }
    }

    func fires(_ s: Score, minSimilarity: Float, margin: Float) -> Bool { s.similarity >= minSimilarity && s.similarity - s.nearMiss >= margin }

    /// Every (row, concept) pair's score.
    func scores(vectors: Matrix, model: ConceptModel) -> [(row: Int, score: Score)] {
        guard vectors.rows > 0, vectors.cols == model.exemplars.cols else { return [] }
        let pos = BLAS.matmul(vectors, model.exemplars, transposeB: true)
        let neg = BLAS.matmul(vectors, model.negatives, transposeB: true)
        let k = max(1, policy.neighbours)
        var out: [(row: Int, score: Score)] = []
        for r in 0..<vectors.rows {
            for (c, range) in model.exemplarRanges.enumerated() where !range.isEmpty {
                // Mean of the k largest similarities among this concept's exemplars.
                var top = [Float](repeating: -1, count: min(k, range.count))
                for e in range {
                    let s = pos[r, e]
                    if s > top[top.count - 1] {
                        var i = top.count - 1
                        while i > 0 && top[i - 1] < s { top[i] = top[i - 1]; i -= 1 }
                        top[i] = s
                    }
                }
                let similarity = top.reduce(0, +) / Float(top.count)
                var nearMiss: Float = -1
                for n in model.negativeRanges[c] { nearMiss = max(nearMiss, neg[r, n]) }
                out.append((r, Score(concept: c, similarity: similarity, nearMiss: nearMiss)))
            }
        }
        return out
    }
}
