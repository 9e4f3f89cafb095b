import Foundation
import Store
import Testing
import TestSupport
@testable import HealthAssistant

/// The parsed profiles stored in the index: read back only while the corpus, the symptom weights
/// and the derivation are unchanged, and never trusted when the stored bytes are damaged.
struct ConditionProfileArchiveTests {
    let weights: [String: Double] = ["key": 2, "typical": 1, "occasional": 0.5]

    func indexedStore(_ files: [String: String], name: String = #function) throws -> (SQLiteStore, URL) {
        let folder = try makeFolder(files, name: name)
        let store = try SQLiteStore(path: TestTemp.root.appendingPathComponent("profiles-\(UUID().uuidString).sqlite").path,
                                    modelID: "fake-bow-16", dimension: 16)
        _ = try CorpusIndexer(store: store, embedder: FakeEmbedder(), countTokens: wordCount).index(folder: folder)
        return (store, folder)
    }

    func derived(_ store: SQLiteStore, _ weights: [String: Double]) throws -> [ConditionProfile] {
        ConditionProfile.derive(from: try store.documents(kind: "condition"), symptomWeights: weights)
    }

    /// The archive is only worth having if what comes back is exactly what was derived.
    @Test func storedProfilesReadBackExactlyAsDerived() throws {
        let (store, _) = try indexedStore(["conditions/meningitis.md": meningitisFile, "conditions/haem.md": haemorrhoidsFile])
        let first = try ConditionProfile.load(from: store, symptomWeights: weights)
        #expect(first == (try derived(store, weights)))
        #expect(try store.artifact(name: ConditionProfileArchive.artifactName) != nil, "the first load stores the profiles")
        let fingerprint = ConditionProfileArchive.fingerprint(corpus: try store.corpusFingerprint(), symptomWeights: weights)
        let stored = try #require(ConditionProfileArchive.load(from: store, fingerprint: fingerprint))
        #expect(stored == first)
        #expect(stored.flatMap(\.symptoms).contains { $0.flagOnly } && stored.contains { $0.course == "weeks" })
        #expect(stored.first { $0.id == "haemorrhoids" }?.against.map(\.name) == ["unexplained weight loss"])
        #expect(stored.first { $0.id == "haemorrhoids" }?.ageRange == 18...120)
    }

    /// The lexicon stored with the profiles is the one built from them.
    @Test func theStoredLexiconIsTheOneBuiltFromTheProfiles() throws {
        let (store, _) = try indexedStore(["conditions/meningitis.md": meningitisFile, "conditions/haem.md": haemorrhoidsFile])
        let first = try ConditionProfile.loadWithLexicon(from: store, symptomWeights: weights)
        let fingerprint = ConditionProfileArchive.fingerprint(corpus: try store.corpusFingerprint(), symptomWeights: weights)
        let stored = try #require(ConditionProfileArchive.loadWithLexicon(from: store, fingerprint: fingerprint))
        let built = SymptomLexicon(profiles: stored.profiles)
        #expect(stored.lexicon == built && first.lexicon == built)
        #expect(!built.postings.isEmpty && !built.nameVocabulary.isEmpty)
        let against = SymptomLexicon(profiles: stored.profiles, findings: \.against)
        #expect(stored.againstLexicon == against && first.againstLexicon == against && !against.variants.isEmpty)
        // The names are stored stemmed, as `ConditionNames` stems them, and find the same conditions.
        func entries(_ n: ConditionNames) -> [String] { n.entries.map { "\($0.profile):\($0.stems.joined(separator: " "))" } }
        #expect(entries(stored.names) == entries(ConditionNames(stored.profiles)) && !stored.names.entries.isEmpty)
        let meningitis = try #require(stored.profiles.firstIndex { $0.name.lowercased().contains("meningitis") })
        #expect(stored.names.named(in: [Set(TextMatch.stems("I think she has meningitis"))]) == [meningitis])
        // A variant index beyond the variants is refused, not stored for a question to trip on.
        let good = ConditionProfileArchive.encode(stored.profiles)
        let bad = SymptomLexicon(variants: built.variants, postings: built.postings.mapValues { $0 + [Int32(built.variants.count)] },
                                 nameVocabulary: built.nameVocabulary)
        #expect((try? ConditionProfileArchive.decodeWithLexicon(good))?.lexicon == built)
        #expect((try? ConditionProfileArchive.decodeWithLexicon(ConditionProfileArchive.encode(stored.profiles, lexicon: bad))) == nil)
    }

    @Test func aCorpusChangeMakesTheStoredProfilesStale() throws {
        let (store, folder) = try indexedStore(["conditions/meningitis.md": meningitisFile])
        _ = try ConditionProfile.load(from: store, symptomWeights: weights)
        let edited = meningitisFile.replacingOccurrences(of: "{name: stiff neck, weight: key}", with: "{name: neck stiffness, weight: key}")
        try Data(edited.utf8).write(to: folder.appendingPathComponent("conditions/meningitis.md"))
        _ = try CorpusIndexer(store: store, embedder: FakeEmbedder(), countTokens: wordCount).index(folder: folder)
        let reloaded = try ConditionProfile.load(from: store, symptomWeights: weights)
        #expect(reloaded.first?.symptoms.map(\.name) == ["fever", "neck stiffness"])
        #expect(reloaded == (try derived(store, weights)))
    }

    @Test func aWeightsChangeMakesTheStoredProfilesStale() throws {
        let (store, _) = try indexedStore(["conditions/meningitis.md": meningitisFile])
        _ = try ConditionProfile.load(from: store, symptomWeights: weights)
        var heavier = weights
        heavier["key"] = 3
        let reloaded = try ConditionProfile.load(from: store, symptomWeights: heavier)
        #expect(reloaded.first?.symptoms.first?.weightValue == 3)
        #expect(ConditionProfileArchive.fingerprint(corpus: "c", symptomWeights: weights)
            != ConditionProfileArchive.fingerprint(corpus: "c", symptomWeights: heavier))
    }

    /// Damaged bytes (a flipped byte, a truncated blob, garbage, a wrong count) are ignored and
    /// the profiles derived again — never a crash, never profiles decoded from garbage.
    @Test(arguments: ["flip", "truncate", "garbage", "empty", "meta"])
    func aCorruptArchiveFallsBackToDeriving(damage: String) throws {
        let (store, _) = try indexedStore(["conditions/meningitis.md": meningitisFile, "conditions/haem.md": haemorrhoidsFile])
        let good = try ConditionProfile.load(from: store, symptomWeights: weights)
        let a = try #require(try store.artifact(name: ConditionProfileArchive.artifactName))
        var data = a.data, meta = a.meta
        switch damage {
        case "flip": data[data.startIndex + data.count / 2] ^= 0x5A
        case "truncate": data = data.prefix(data.count - 7)
        case "garbage": data = Data((0..<data.count).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        case "empty": data = Data()
        default: meta = "{\"profiles\": 1, \"checksum\": \"0\"}"
        }
        try store.putArtifact(name: ConditionProfileArchive.artifactName, fingerprint: a.fingerprint, meta: meta, data: data)
        let fingerprint = ConditionProfileArchive.fingerprint(corpus: try store.corpusFingerprint(), symptomWeights: weights)
        #expect(ConditionProfileArchive.load(from: store, fingerprint: fingerprint) == nil)
        #expect(try ConditionProfile.load(from: store, symptomWeights: weights) == good)
        // …and the damaged copy was replaced by a good one.
        #expect(ConditionProfileArchive.load(from: store, fingerprint: fingerprint) == good)
    }

    /// Even bytes that pass the checksum cannot make the reader run past the end.
    @Test func theReaderRejectsLayoutsThatDoNotAddUp() {
        let good = ConditionProfileArchive.encode([])
        #expect((try? ConditionProfileArchive.decode(good)) == [])
        #expect((try? ConditionProfileArchive.decode(Data([0xFF, 0xFF, 0xFF, 0x7F]))) == nil, "a count beyond the bytes left")
        #expect((try? ConditionProfileArchive.decode(good + Data([0]))) == nil, "trailing bytes")
        #expect((try? ConditionProfileArchive.decode(Data([1, 0]))) == nil, "truncated count")
    }
}

let haemorrhoidsFile = """
---
id: haemorrhoids
name: Haemorrhoids
aliases: [piles]
triage: routine
duration: weeks
age: {min: 18, max: 120}
against: [unexplained weight loss]
symptoms:
  - {name: bright red blood after a poo, weight: key, lay: [blood on the toilet paper]}
  - {name: itchy bottom, weight: typical}
  - {name: fever, weight: occasional}
red_flags:
  - {flag: heavy bleeding with fever, level: urgent, all: [fever]}
---

# Haemorrhoids

Swollen blood vessels in and around the bottom. Usually get better on their own within weeks.
"""
