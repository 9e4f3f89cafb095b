import Foundation
import Store

/// The condition profiles as parsed from the index (front matter decoded, every symptom variant
/// stemmed), stored back in the index as an artifact. Deriving them parses 634 JSON documents and
/// stems every word of every variant, which was most of a cold start; reading them back is a
/// straight walk over one blob. The blob also holds the profiles' `SymptomLexicon` (building it
/// hashes every stem of 24,000 variants, half of loading the index; reading it back inserts each
/// distinct stem once), and the lexicon of the findings that argue against each condition.
///
/// The artifact is keyed by a fingerprint of everything the derivation reads — the corpus, the
/// symptom weights (rules/weights.yaml) and the derivation itself (`derivationVersion` and the
/// stemming tables) — so any change to those makes the stored copy stale and it is derived again.
/// A blob whose checksum or layout does not hold is ignored the same way: never trusted, never fatal.
enum ConditionProfileArchive {
    static let artifactName = "condition-profiles-v1"

    /// Bump whenever `ConditionProfile.derive` or `TextMatch` changes what a profile holds in a way
    /// the stemming tables below do not already show, or the layout changes (2: the lexicon added; 3: onset added;
    /// 4: `against` findings and their lexicon added; 5: apostrophe-less contractions split; 6: irregular verb forms;
    /// 7: the numeric age range added; 8: the stemmed condition names added).
    static let derivationVersion = 8

    struct Meta: Codable { var profiles: Int; var checksum: String }

    enum DecodeError: Error { case truncated, malformed }

    /// Covers the corpus, the symptom weights and the derivation (its version and the tables it stems with).
    static func fingerprint(corpus: String, symptomWeights: [String: Double]) -> String {
        var parts = ["v\(derivationVersion)", corpus]
        parts += symptomWeights.keys.sorted().map { "\($0)=\(symptomWeights[$0]!.bitPattern)" }
        parts += TextMatch.spellingFolds.map { "\($0.0)>\($0.1)" } + TextMatch.suffixes + TextMatch.stopWords.sorted()
        return corpus + "-" + checksum(Data(parts.joined(separator: "\u{1F}").utf8))
    }

    /// FNV-1a over the bytes, eight at a time (a corrupt blob must not decode into plausible profiles).
    static func checksum(_ data: Data) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words { h = (h ^ raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* 0x100_0000_01b3 }
            for i in (words * 8)..<raw.count { h = (h ^ UInt64(raw[i])) &* 0x100_0000_01b3 }
        }
        return String(h, radix: 16) + "-\(data.count)"
    }

    static func save(_ profiles: [ConditionProfile], lexicon: SymptomLexicon? = nil, againstLexicon: SymptomLexicon? = nil, names: ConditionNames? = nil,
                     to store: SQLiteStore, fingerprint: String) throws {
        let data = encode(profiles, lexicon: lexicon, againstLexicon: againstLexicon, names: names)
        let meta = String(decoding: try JSONEncoder().encode(Meta(profiles: profiles.count, checksum: checksum(data))), as: UTF8.self)
        try store.putArtifact(name: artifactName, fingerprint: fingerprint, meta: meta, data: data)
    }

    /// The stored profiles if they were derived from exactly these inputs and read back intact; nil otherwise.
    static func load(from store: SQLiteStore, fingerprint: String) -> [ConditionProfile]? {
        loadWithLexicon(from: store, fingerprint: fingerprint)?.profiles
    }

    /// The stored profiles and their lexicons, under the same conditions as `load`.
    static func loadWithLexicon(from store: SQLiteStore, fingerprint: String) -> Archive? {
        guard let a = try? store.artifact(name: artifactName), a.fingerprint == fingerprint,
              let meta = try? JSONDecoder().decode(Meta.self, from: Data(a.meta.utf8)), meta.checksum == checksum(a.data),
              let archive = try? decodeWithLexicon(a.data), archive.profiles.count == meta.profiles else { return nil }
        return archive
    }

    // MARK: layout — little-endian counts and lengths (UInt32), strings as UTF-8 bytes

    /// The profiles with their symptom lexicon, the lexicon of their `against` findings, and their names stemmed.
    typealias Archive = (profiles: [ConditionProfile], lexicon: SymptomLexicon, againstLexicon: SymptomLexicon, names: ConditionNames)

    /// `lexicon`, `againstLexicon`, `names`: the profiles' own (built here when not given).
    static func encode(_ profiles: [ConditionProfile], lexicon: SymptomLexicon? = nil, againstLexicon: SymptomLexicon? = nil,
                       names: ConditionNames? = nil) -> Data {
        var w = Writer()
        w.count(profiles.count)
        for p in profiles {
            for s in [p.id, p.name] { w.string(s) }
            w.strings(p.aliases)
            w.string(p.triage.rawValue); w.string(p.prevalence)
            w.strings(p.ages)
            w.string(p.sex)
            w.count(p.symptoms.count)
            for s in p.symptoms {
                w.string(s.name); w.strings(s.variants); w.string(s.weight)
                w.count(s.variantStems.count)
                for stems in s.variantStems { w.strings(stems) }
                w.double(s.weightValue); w.bool(s.flagOnly)
            }
            w.count(p.redFlags.count)
            for f in p.redFlags {
                w.string(f.flag); w.string(f.level.rawValue); w.strings(f.all); w.strings(f.any); w.optional(f.population)
            }
            w.string(p.path); w.string(p.system); w.bool(p.cantMiss); w.optional(p.course); w.optional(p.onset)
            w.optional(p.ageRange.map { "\($0.lowerBound) \($0.upperBound)" })
            w.count(p.against.count)
            for s in p.against {
                w.string(s.name); w.strings(s.variants)
                w.count(s.variantStems.count)
                for stems in s.variantStems { w.strings(stems) }
            }
        }
        write(lexicon ?? SymptomLexicon(profiles: profiles), to: &w)
        write(againstLexicon ?? SymptomLexicon(profiles: profiles, findings: \.against), to: &w)
        let entries = (names ?? ConditionNames(profiles)).entries
        w.count(entries.count)
        for e in entries { w.value(e.profile); w.strings(e.stems) }
        return Data(w.bytes)
    }

    static func write(_ lexicon: SymptomLexicon, to w: inout Writer) {
        w.count(lexicon.variants.count)
        for v in lexicon.variants { w.value(Int(v.profile)); w.value(Int(v.symptom)); w.value(Int(v.stemCount)) }
        // Sorted, so the same profiles always give the same bytes.
        w.count(lexicon.postings.count)
        for stem in lexicon.postings.keys.sorted() {
            let list = lexicon.postings[stem]!
            w.string(stem); w.count(list.count)
            for v in list { w.value(Int(v)) }
        }
        w.strings(lexicon.nameVocabulary.sorted())
    }

    static func decode(_ data: Data) throws -> [ConditionProfile] { try decodeWithLexicon(data).profiles }

    static func decodeWithLexicon(_ data: Data) throws -> Archive {
        try data.withUnsafeBytes { raw in
            var r = Reader(raw: raw)
            let profiles = try (0..<r.count()).map { _ in
                let id = try r.string(), name = try r.string(), aliases = try r.strings()
                guard let triage = TriageLevel(rawValue: try r.string()) else { throw DecodeError.malformed }
                let prevalence = try r.string(), ages = try r.strings(), sex = try r.string()
                let symptoms = try (0..<r.count()).map { _ in
                    let name = try r.string(), variants = try r.strings(), weight = try r.string()
                    let stems = try (0..<r.count()).map { _ in try r.strings() }
                    return ConditionProfile.Symptom(name: name, variants: variants, weight: weight, variantStems: stems,
                                                    weightValue: try r.double(), flagOnly: try r.bool())
                }
                let flags = try (0..<r.count()).map { _ in
                    let flag = try r.string()
                    guard let level = TriageLevel(rawValue: try r.string()) else { throw DecodeError.malformed }
                    return ConditionProfile.RedFlag(flag: flag, level: level, all: try r.strings(), any: try r.strings(), population: try r.optional())
                }
                let path = try r.string(), system = try r.string(), cantMiss = try r.bool(), course = try r.optional(), onset = try r.optional()
                let ageRange = try r.optional().map { text -> ClosedRange<Double> in
                    let bounds = text.split(separator: " ").compactMap { Double($0) }
                    guard bounds.count == 2, bounds[0] <= bounds[1] else { throw DecodeError.malformed }
                    return bounds[0]...bounds[1]
                }
                let against = try (0..<r.count()).map { _ in
                    let name = try r.string(), variants = try r.strings()
                    let stems = try (0..<r.count()).map { _ in try r.strings() }
                    return ConditionProfile.Symptom(name: name, variants: variants, weight: "against", variantStems: stems, weightValue: 0, flagOnly: false)
                }
                var profile = ConditionProfile(id: id, name: name, aliases: aliases, triage: triage, prevalence: prevalence, ages: ages, sex: sex,
                                               symptoms: symptoms, redFlags: flags, path: path, system: system,
                                               cantMiss: cantMiss, course: course, onset: onset, against: against)
                profile.ageRange = ageRange
                return profile
            }
            let lexicon = try readLexicon(&r, profiles: profiles, findings: \.symptoms)
            let againstLexicon = try readLexicon(&r, profiles: profiles, findings: \.against)
            let names = try (0..<r.count()).map { _ -> (profile: Int, stems: [String]) in
                let profile = try r.value(), stems = try r.strings()
                guard profile < profiles.count, !stems.isEmpty else { throw DecodeError.malformed }
                return (profile, stems)
            }
            guard r.offset == raw.count else { throw DecodeError.malformed }
            return (profiles, lexicon, againstLexicon, ConditionNames(entries: names))
        }
    }

    /// A lexicon, every index checked against what it points into (a bad one throws here rather
    /// than crashing a question later).
    static func readLexicon(_ r: inout Reader, profiles: [ConditionProfile], findings: KeyPath<ConditionProfile, [ConditionProfile.Symptom]>) throws -> SymptomLexicon {
        let variants = try (0..<r.count()).map { _ in
            let profile = try r.value(), symptom = try r.value(), stemCount = try r.value()
            guard profile < profiles.count, symptom < profiles[profile][keyPath: findings].count else { throw DecodeError.malformed }
            return SymptomLexicon.Variant(profile: Int32(profile), symptom: Int32(symptom), stemCount: Int32(stemCount))
        }
        let stems = try r.count()
        var postings: [String: [Int32]] = [:]
        postings.reserveCapacity(stems)
        for _ in 0..<stems {
            let stem = try r.string()
            let list = try (0..<r.count()).map { _ in
                let v = try r.value()
                guard v < variants.count else { throw DecodeError.malformed }
                return Int32(v)
            }
            guard postings.updateValue(list, forKey: stem) == nil else { throw DecodeError.malformed }
        }
        let names = Set(try r.strings())
        return SymptomLexicon(variants: variants, postings: postings, nameVocabulary: names)
    }

    struct Writer {
        var bytes: [UInt8] = []
        mutating func count(_ n: Int) { withUnsafeBytes(of: UInt32(n).littleEndian) { bytes += $0 } }
        /// A number that is not a count of items that follow (an index).
        mutating func value(_ n: Int) { count(n) }
        mutating func string(_ s: String) { count(s.utf8.count); bytes += s.utf8 }
        mutating func strings(_ list: [String]) { count(list.count); for s in list { string(s) } }
        mutating func double(_ d: Double) { withUnsafeBytes(of: d.bitPattern.littleEndian) { bytes += $0 } }
        mutating func bool(_ b: Bool) { bytes.append(b ? 1 : 0) }
        mutating func optional(_ s: String?) { bool(s != nil); if let s { string(s) } }
    }

    /// Bounds-checked reading: a truncated or garbled blob throws instead of reading past the end.
    struct Reader {
        let raw: UnsafeRawBufferPointer
        var offset = 0

        mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
            guard n >= 0, n <= raw.count - offset else { throw DecodeError.truncated }
            defer { offset += n }
            return UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + n)])
        }
        mutating func count() throws -> Int {
            let n = Int(UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self)))
            // Every counted item takes at least one byte, so a count beyond the bytes left is garbage.
            guard n <= raw.count - offset else { throw DecodeError.malformed }
            return n
        }
        /// A number that is not a count of items that follow (an index), so not bounded by the bytes left.
        mutating func value() throws -> Int { Int(UInt32(littleEndian: try take(4).loadUnaligned(as: UInt32.self))) }
        mutating func string() throws -> String { String(decoding: try take(try count()), as: UTF8.self) }
        mutating func strings() throws -> [String] { try (0..<count()).map { _ in try string() } }
        mutating func double() throws -> Double { Double(bitPattern: UInt64(littleEndian: try take(8).loadUnaligned(as: UInt64.self))) }
        mutating func bool() throws -> Bool {
            switch try take(1)[0] {
            case 0: return false
            case 1: return true
            default: throw DecodeError.malformed
            }
        }
        mutating func optional() throws -> String? { try bool() ? try string() : nil }
    }
}
