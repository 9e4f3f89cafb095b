import Testing
@testable import HealthAssistant

struct FindingsParserTests {
    let parser = TestKnowledge.parser

    /// Only "I'm 35" gives the writer's own age; "my husband is 57" gives the patient's.
    @Test func theWritersOwnAgeIsToldApart() {
        let parser = TestKnowledge.parser
        #expect(parser.statesOwnAge("I'm 35 and my son has a fever"))
        #expect(parser.statesOwnAge("i am forty-two, my mum is poorly"))
        #expect(!parser.statesOwnAge("my husband is 57 and snores"))
        #expect(!parser.statesOwnAge("I am worried about my dad, he is 80"))
    }

    @Test func negationCoversItsListUntilBut() {
        let f = parser.parse("No fever or cough, but a sore throat and headache")
        #expect(f.negative == ["fever", "cough"])
        #expect(f.positive == ["a sore throat", "headache"])
    }

    @Test(arguments: [
        ("denies chest pain", "chest pain"), ("without rash", "rash"), ("never had a seizure", "a seizure"),
        ("I don't have a stiff neck", "a stiff neck"), ("not short of breath", "short of breath"),
    ])
    func negationCues(text: String, negated: String) {
        let f = parser.parse(text)
        #expect(f.negative.contains(negated), "\(f.clauses)")
        #expect(!f.positive.contains(negated))
    }

    @Test func negatedListsRunAcrossCommasOnlyWhenTheyEndInOr() {
        #expect(parser.parse("no fever, cough or rash").negative == ["fever", "cough", "rash"])
        #expect(parser.parse("denies fever, chills, or night sweats").negative == ["fever", "chills", "night sweats"])
        let mixed = parser.parse("no fever, headache for 3 days")
        #expect(mixed.negative == ["fever"])
        #expect(mixed.positive == ["headache for 3 days"])
    }

    @Test func aNewPredicateEndsTheNegation() {
        // The fever is present: "has" starts a new statement after the negated "cough".
        let f = parser.parse("my 2 month old baby is floppy, no cough and has a fever")
        #expect(f.negative == ["cough"])
        #expect(f.positive.contains("has a fever"))
        // "not feeding" is a finding in itself (a red flag in a baby), not a denial.
        #expect(parser.parse("my baby is not feeding and has a fever").negative.isEmpty)
        #expect(f.durationDays == nil, "an age is not a duration")
        #expect(parser.parse("no fever and my neck is stiff").positive == ["my neck is stiff"])
    }

    /// Unpunctuated text (voice typing) puts a new statement straight after a denial: a subject
    /// that starts one ends the denial; a subordinate clause stays in it.
    @Test func aNewSubjectEndsTheDenialInRunOnText() {
        let f = parser.parse("not sleeping well on the train home i got a heavy squeezing in my chest")
        #expect(f.positive.contains("i got a heavy squeezing in my chest"), "\(f.clauses)")
        #expect(f.negative == ["sleeping well on the train home"])
        let g = parser.parse("we're not trying for a baby since this morning ive had a sharp pain low on my left side")
        #expect(g.positive.contains("ive had a sharp pain low on my left side"), "\(g.clauses)")
        #expect(parser.parse("no pain when i breathe in").negative == ["pain when i breathe in"])
        #expect(parser.parse("no fever she's been drinking well").positive.isEmpty)
    }

    /// After "never", a perfect's "had" or "been" carries a comma list on; any other verb starts
    /// a statement, so a danger sign after a denial stays a finding.
    @Test func aListAfterNeverCarriesItsPerfect() {
        #expect(parser.parse("I've never fainted, had chest pain or been breathless").negative == ["fainted", "had chest pain", "been breathless"])
        let f = parser.parse("not eating, has crushing chest pain or shortness of breath")
        #expect(f.positive.contains("has crushing chest pain"), "\(f.clauses)")
    }

    /// Common misspellings are read as the words they stand for (rules/spellings.yaml), by every
    /// rule alike; words the list does not hold are left as written.
    @Test func misspellingsAreReadAsTheirWords() {
        let f = parser.parse("Shes dizy and cant get a full breth, her temprature is high")
        #expect(f.text == "Shes dizzy and cant get a full breath, her temperature is high")
        #expect(f.positive.contains("her temperature is high"), "\(f.clauses)")
        #expect(parser.parse("pane of glass").text == "pane of glass")
    }

    @Test func keywordQueryKeepsWhatThePersonHasNotWhatTheyDeny() {
        let q = parser.parse("I have been experiencing a bad headache and a stiff neck for 3 days, no fever").keywordQuery
        #expect(q.split(separator: " ").contains("headache") && q.split(separator: " ").contains("stiff"))
        #expect(!q.contains("fever"))
        #expect(!q.split(separator: " ").contains("have") && !q.split(separator: " ").contains("experiencing"))
        // Nothing but function words: the whole text is the query.
        #expect(parser.parse("what is it?").keywordQuery == "what is it?")
    }

    @Test func notANegation() {
        #expect(parser.parse("the pain is no longer in my back but in my chest").negative.isEmpty)
        // A symptom that persists despite treatment is still the person's symptom.
        #expect(parser.parse("my cough is not getting better").negative.isEmpty)
        #expect(parser.parse("the cream is not working on my rash").negative.isEmpty)
        // …but a later "not" in the same clause still denies.
        #expect(parser.parse("the inhaler is not helping and I am not wheezing").negative.contains { $0.contains("wheezing") })
    }

    /// "breathing normally" says all is well, but "not breathing normally" is the red flag itself, and
    /// "not respond to nothing" (a double negative) is not responding.
    @Test func aNegatedReassuranceIsAFinding() {
        #expect(parser.parse("no fever, breathing normally").negative == ["fever", "breathing normally"])
        for text in ["he is not breathing normally", "my baby isn't breathing normal", "he not respond to nothing", "she doesn't respond to anything"] {
            let f = parser.parse(text)
            #expect(f.negative.isEmpty, "\(text): \(f.clauses)")
        }
    }

    /// A reassurance can end one item of a list ("drinks well, pees normal and is playing"), and
    /// "well" reassures only after feeding, drinking, eating, sleeping or peeing.
    @Test func reassurancesWithinAList() {
        let f = parser.parse("watery diarrhoea for 2 days. She drinks well, pees normal and she is playing.")
        #expect(f.negative.contains("she drinks well") && f.negative.contains("pees normal"), "\(f.clauses)")
        #expect(f.positive.contains("she is playing"))
        #expect(parser.parse("eating and drinking normally and no vomiting").negative.contains("drinking normally"))
        #expect(parser.parse("I don't feel well").negative.isEmpty)
        // The rest of a denial read afresh keeps its own "or".
        let thinners = parser.parse("not dizzy, not short of breath - and I don't take aspirin or any blood thinners")
        #expect(thinners.positive.allSatisfy { !$0.contains("blood thinners") }, "\(thinners.clauses)")
        // After "at all", "just" says what there is instead.
        let instead = parser.parse("no chest pain at all just clammy n feel off")
        #expect(instead.negative == ["chest pain at all"] && instead.positive.contains(where: { $0.contains("clammy") }), "\(instead.clauses)")
        // The person as a whole: "I feel well" and "otherwise well" reassure (by meaning, "i feel well" met "feel sick").
        #expect(parser.parse("a small lump on my testicle. I feel well").negative == ["i feel well"])
        #expect(parser.parse("rash on her arm, otherwise well").negative == ["otherwise well"])
        #expect(parser.parse("I feel well").positive.isEmpty)
        #expect(parser.parse("not feeding well since this morning").negative.isEmpty)
        // A change from normal is a finding: "faster than normal", "hardly feeding well".
        #expect(parser.parse("tummy pain and breathing faster than normal").negative.isEmpty)
        // A finding named in the piece is not reassured away by its last words.
        #expect(parser.parse("tongue swollen and breathing fine").positive == ["tongue swollen"])
        #expect(parser.parse("lips tongue n throat totally fine").positive.isEmpty)
        #expect(parser.parse("a cough and is hardly feeding well").negative.isEmpty)
        // Texting's "n" is "and".
        #expect(parser.parse("red stuff in nappy. feeding well n wet nappies normal").negative == ["feeding well", "wet nappies normal"])
    }

    /// "I can swallow", "she is able to put weight on it": an ability still there denies trouble
    /// with it. Limited abilities ("can barely swallow", "can only walk a few steps"), what the
    /// person can feel or see, and breathing or talking (said of a partial trouble) stay findings.
    @Test func anAbilityStillThereIsADenial() {
        for text in ["I can swallow", "he can still walk on it", "she is able to put weight on it", "he's able to move his fingers", "I can keep fluids down"] {
            let f = parser.parse(text)
            #expect(f.positive.isEmpty && f.negative.count == 1, "\(text): \(f.clauses)")
        }
        for text in ["I can barely swallow", "I can only walk a few steps", "I can feel a lump", "he can breathe but he is wheezing", "I can see flashing lights", "I can't swallow"] {
            let f = parser.parse(text)
            #expect(f.negative.isEmpty, "\(text): \(f.clauses)")
        }
    }

    /// "no poo or wind for 3 days" is nothing coming out (a blocked bowel), not a denial; "no blood in
    /// the poo" still denies.
    @Test func nothingComingOutIsAFinding() {
        #expect(parser.parse("no poo or wind for 3 days, belly swollen").negative.isEmpty)
        #expect(parser.parse("no blood in the poo").negative == ["blood in the poo"])
    }

    /// "32 weeks gone" is a pregnancy, not a 32-week illness.
    @Test func weeksGoneIsAPregnancy() {
        let f = parser.parse("she's 32 weeks gone and her face and hands are puffy")
        #expect(f.pregnant && f.durationDays == nil && f.lastedDays == nil)
        #expect(parser.parse("cough for 3 weeks").durationDays == 21)
    }

    /// A pregnancy said by its weeks alone ("I'm 29 weeks") is pregnant and no duration; weeks
    /// since something ("6 weeks post op"), a baby's weeks or a time past are not a pregnancy.
    @Test func weeksAloneCanBeAPregnancy() {
        for text in ["I'm 29 weeks and getting tightenings every 5 minutes", "my wife is 37 weeks, her waters went",
                     "she's 34 weeks and her face is puffy", "im 29+3 and bleeding",
                     // Weeks beside the baby's kicks or the midwife, and a woman's terse age.
                     "no kicks since lunch, 34 wks", "30 weeks, the baby's movements have slowed", "31F 33 wks, itchy palms"] {
            let f = parser.parse(text)
            #expect(f.pregnant && f.durationDays == nil && f.lastedDays == nil, "\(text)")
        }
        for text in ["I'm 6 weeks post op and the wound is red", "she's 6 weeks and has a fever", "I'm 2 weeks into antibiotics",
                     "I'm 3 weeks late", "he is 30 weeks", "my baby is 8 weeks old", "my 16 weeks old is kicking his legs",
                     "52f 4 weeks cough"] {
            #expect(!parser.parse(text).pregnant, "\(text)")
        }
        #expect(parser.parse("I'm 29 weeks and the pain has been there for 2 days").durationDays == 2)
        #expect(parser.parse("tightenings every 5 minutes").durationDays == nil)
        // The weeks of a pregnancy are no age; weeks "with" a trouble are no pregnancy.
        #expect(parser.parse("I'm 10 weeks and been sick 3 times today").ageYears == nil)
        #expect(!parser.parse("I'm 6 weeks with this back pain").pregnant)
        // In a pregnancy "the baby" is not yet born: no baby's age.
        #expect(parser.parse("I'm 30 weeks pregnant and the baby isn't moving").ageYears == nil)
        #expect(parser.parse("I'm 30 weeks pregnant and 31 years old").ageYears == 31)
    }

    /// An "or" item stays in its denial though it starts with a verb; an "and" item is new.
    @Test func anOrItemStaysDenied() {
        let f = parser.parse("I've never fainted or had chest pain and I feel fine")
        #expect(f.negative.contains("had chest pain"), "\(f.clauses)")
        #expect(parser.parse("no fever and has a rash on her legs").positive.contains("has a rash on her legs"))
        // An "or" item with its own subject is a new statement.
        #expect(parser.parse("no idea if this is indigestion or I'm having a heart attack").positive.contains { $0.contains("having a heart attack") })
    }

    /// "haven't got" denies in British English; "hasn't got a pulse" is the finding itself.
    @Test func haventGotDenies() {
        #expect(parser.parse("I haven't got a temperature").negative == ["a temperature"])
        #expect(parser.parse("he hasn't got a pulse").positive.contains { $0.contains("pulse") })
        #expect(parser.parse("since lunch she hasn't got any strength in her left arm").positive.contains { $0.contains("strength") })
    }

    /// A clause that only states a long-term condition is no event; one that says more is.
    @Test func aBareHistoryStatement() {
        #expect(parser.statesHistoryOnly("i have asthma"))
        #expect(parser.statesHistoryOnly("i've had type 2 diabetes for about ten years now"))
        #expect(!parser.statesHistoryOnly("my asthma is really bad and the inhaler isn't helping"))
        #expect(!parser.statesHistoryOnly("he had a heart attack"), "an event, not a long-term condition")
        #expect(!parser.statesHistoryOnly("my chest hurts"))
    }

    /// A span opening its sentence, or "the last few months", says how long the trouble has lasted.
    @Test func spansSaidTersely() {
        #expect(parser.parse("45F. ~6 months bloating and crampy pain").lastedDays == 180)
        #expect(parser.parse("Hello. About 6 month I have bloating").lastedDays == 180)
        #expect((parser.parse("over the last few months I've noticed tingling").lastedDays ?? 0) >= 60)
        #expect(parser.parse("About 2 hours ago he collapsed").lastedDays == nil)
        // A span with no count: "past month", "in the last week"; not "last week" alone (a time).
        #expect(parser.parse("son 10, past month he's needed his blue inhaler 3 times a week").lastedDays == 30)
        #expect(parser.parse("my knee has ached in the last week").lastedDays == 7)
        #expect(parser.parse("last week I fell off my bike, now my wrist hurts").lastedDays == nil)
    }

    /// Where a reading was taken says it is a temperature.
    @Test func aReadingTakenUnderTheArmIsATemperature() {
        #expect(parser.parse("son 3 wks old. felt warm tonight, underarm 38.1, 15 min later 38.0").vitals.temperatureC == 38.1)
        #expect(parser.parse("I weigh 38.5 stone").vitals.temperatureC == nil)
    }

    /// A peak flow reading beside the person's best is a share of it.
    @Test func peakFlowAgainstBest() {
        #expect(parser.parse("asthma worse since a cold. peak flow 320, best 460").vitals.peakFlowPercent == 70)
        #expect(parser.parse("my best peak flow is 500, today it's 240").vitals.peakFlowPercent == 48)
        #expect(parser.parse("peak flow 450 this morning").vitals.peakFlowPercent == nil)
    }

    /// Unbroken sleep is a reassurance, not a sleepy or hard-to-wake child.
    @Test func sleepingThroughTheNightReassures() {
        let f = parser.parse("cough after football. otherwise well, sleeping thru the night")
        #expect(f.negative.contains("sleeping thru the night"), "\(f.clauses)")
        #expect(parser.parse("coughing through the night").negative.isEmpty)
        #expect(parser.parse("she has been sleeping all day and is hard to wake").negative.isEmpty)
    }

    /// A family word and a number is an age, said tersely or in words; a count after one is not.
    @Test func aTerseFamilyAgeIsAnAge() {
        #expect(parser.parse("Dad 62. Heavy feeling across chest").ageYears == 62)
        #expect(parser.parse("Daughter 3, temp and spots").ageYears == 3)
        #expect(parser.parse("I found my grandson, who is two, with my pills").ageYears == 2)
        #expect(parser.parse("gave my son 2 tablets of paracetamol").ageYears == nil)
        #expect(parser.parse("my husband 2 hours ago fell").ageYears == nil)
        #expect(parser.parse("gave husband 2 aspirin, his arm is weak").ageYears == nil)
        #expect(parser.parse("newborn, baby 2 wet nappies today").ageYears != 2)
        #expect(parser.parse("my husband's two hands are numb").ageYears == nil)
        #expect(parser.parse("grandson 3 got into my pill organizer 20 min ago").ageYears == 3)
        // What follows "with" belongs to the denied item.
        #expect(parser.parse("there is no rash and no trouble with her breathing").positive.allSatisfy { !$0.contains("breathing") })
        #expect(parser.parse("my lad is 4 and has had temps for 5 days").ageYears == 4)
        // A worded age with a verb after it, and "who's" typed without its apostrophe.
        #expect(parser.parse("his little girl whos three got hold of the bottle").ageYears == 3)
        #expect(parser.parse("my nephew who's two ate a slug pellet").ageYears == 2)
        // "… and he had": the subject after "and" is followed by its verb.
        #expect(parser.parse("im babysitting my grandson hes two and he had the tv remote").ageYears == 2)
        #expect(parser.parse("my husband who is three times as stubborn has a cough").ageYears == nil)
        // "… and" with a verb after a worded age: "my son is two and was well until yesterday".
        #expect(parser.parse("My son is two and was perfectly well until yesterday").ageYears == 2)
        #expect(parser.parse("my daughter is seven and has a cough").ageYears == 7)
        #expect(parser.parse("my son is two and a half stone heavier").ageYears == nil)
        // An age said with "have" ("mi hijo tiene 3 años"): an age, and no duration of years.
        let has = parser.parse("My son has 3 years and a fever since this morning")
        #expect(has.ageYears == 3)
        #expect((has.durationDays ?? 0) < 365)
        #expect(parser.parse("I have had 2 years of back pain").ageYears == nil)
        // A baby's weeks said with "have", where the sentence ends: an age, not 5 weeks of fever.
        let weeks = parser.parse("My son have 5 weeks. He feel warm and the rectal temperature is 100.6")
        #expect(abs((weeks.ageYears ?? 1) - 5.0 / 52) < 0.001)
        #expect((weeks.durationDays ?? 0) < 7)
        #expect(parser.parse("my son has 5 weeks of cough now").ageYears == nil)
    }

    /// "can almost not open my mouth" is an ability nearly lost, as "can hardly open" is; "can not" stays a denial's cue elsewhere.
    @Test func canAlmostNotIsNoDenial() {
        let f = parser.parse("I can almost not open my mouth and swallowing my saliva is painful")
        #expect(f.positive.contains { $0.contains("open my mouth") })
        #expect(parser.parse("she could nearly not stand up").positive.contains { $0.contains("stand") })
        #expect(!parser.parse("no pain, I can walk, not dizzy").positive.contains { $0.contains("dizzy") })
    }

    /// "I'm 34 weeks with my first baby" is a pregnancy ("2 weeks with a cough" is not); weeks said
    /// beside a first baby or a due date are too.
    @Test func weeksWithAFirstBabyArePregnancy() {
        #expect(parser.parse("I'm 34 weeks with my first baby and have a bad headache").pregnant)
        #expect(parser.parse("34 wks first baby. headache since yesterday, flashing lights today").pregnant)
        #expect(!parser.parse("I'm 2 weeks with a cough that won't shift").pregnant)
        // Weeks with the baby felt less a sentence on are a pregnancy; a baby's own weeks are not.
        #expect(parser.parse("34 wks, really tired. baby much quieter than usual today, hardly felt him since breakfast").pregnant)
        #expect(!parser.parse("my baby is 20 weeks, she is quieter than usual today and feeding less").pregnant)
    }

    /// A reassurance's length is its predicate's: "but I am eating and drinking perfectly well"
    /// denies both, as "eating and drinking perfectly well" does.
    @Test func aReassuranceAfterASubjectCoversTheWholeList() {
        let f = parser.parse("I feel a little queasy in the mornings, but I am eating and drinking perfectly well")
        #expect(!f.positive.contains { $0.contains("eating") })
        #expect(f.positive.contains { $0.contains("queasy") })
    }

    /// "had our baby 4 days ago" is a birth, not a baby's age; a baby's own age still counts.
    @Test func aRecentBirthIsNoBabysAge() {
        let f = parser.parse("my wife had our baby 4 days ago and has a bad headache")
        #expect(f.postpartum && f.ageYears == nil && f.sex == .female && !f.pregnant)
        let baby = parser.parse("my baby is 4 days old and has a fever")
        #expect(!baby.postpartum && (baby.ageYears ?? 1) < 0.05)
        #expect(parser.parse("I gave birth last week and my calf is swollen").postpartum)
        // About the baby: the birth is the baby's, and "baby" keeps its age.
        let newborn = parser.parse("we had our baby 3 days ago, he is yellow and sleepy")
        #expect(!newborn.postpartum && (newborn.ageYears ?? 1) < 1)
    }

    /// "nothing" denies when it opens the clause, and is the finding when nothing comes out or helps.
    @Test func nothingDeniesOnlyAtTheStart() {
        #expect(parser.parse("nothing chemical has gone in it").negative == ["chemical has gone in it"])
        #expect(parser.parse("he does not respond to nothing and is not breathing normal").negative.isEmpty)
        #expect(parser.parse("nothing has come out into the bag for 12 hours").negative.isEmpty)
        #expect(parser.parse("nothing stays down").negative.isEmpty)
        #expect(parser.parse("my baby is 3 weeks old, nothing will wake her").negative.isEmpty)
        #expect(parser.parse("nothing is stopping the bleeding").negative.isEmpty)
        #expect(parser.parse("she can see perfectly well").negative == ["she can see perfectly well"])
    }

    /// The few words before "not" say what the denial is about: they meet findings only word for
    /// word ("white of eye" is no red eye); other cues start a new statement, whose words count.
    @Test func whatADenialIsAbout() {
        let f = parser.parse("white of eye not red, eyelids not swollen")
        #expect(f.clauses.filter(\.literalOnly).map(\.text) == ["white of eye", "eyelids"], "\(f.clauses)")
        #expect(f.negative == ["red", "swollen"])
        let texted = parser.parse("her lips and tongue arent swollen")
        #expect(texted.negative == ["swollen"] && texted.clauses.filter { $0.literalOnly }.map(\.text) == ["her lips", "tongue"], "\(texted.clauses)")
        #expect(!parser.parse("its total gibberish none of it makes sense").clauses.contains { $0.literalOnly })
        #expect(!parser.parse("she has had a bad headache for two days and it is not going away").clauses.contains { $0.literalOnly })
        // "not normal", "not ok": something is wrong.
        let breathing = parser.parse("breathing is not normal, only gasping")
        #expect(breathing.negative.isEmpty && breathing.positive.first == "breathing is not normal", "\(breathing.clauses)")
    }

    /// "didn't", "doesn't" and "don't" deny what follows ("didn't black out", "my back doesn't
    /// hurt"), except a finding that holds the cue or a doubt ("doesn't respond", "didn't wake",
    /// "don't want to live", "don't think he's breathing").
    @Test func auxiliaryDenials() {
        let f = parser.parse("he didn't black out and his back doesn't hurt, he doesnt feel sick")
        #expect(f.negative == ["black out", "hurt", "feel sick"], "\(f.clauses)")
        // An auxiliary's denial stops at "and" or "with"; an "or" list stays denied.
        for (text, finding) in [("I didn't take my inhaler and can't breathe properly", "can't breathe properly"),
                                ("he isnt talking properly and droopy face", "droopy face"),
                                ("she doesn't smoke and coughing up lots of blood", "coughing up lots of blood"),
                                ("no fever and suddenly can't move my arm", "suddenly can't move my arm")] {
            #expect(parser.parse(text).positive.contains(finding), "\(text): \(parser.parse(text).clauses)")
        }
        #expect(parser.parse("she didn't faint or fall").negative == ["faint", "fall"])
        for text in ["she doesn't respond when I shout", "he didn't wake up this morning", "I don't want to live anymore",
                     "I don't think he's breathing", "he doesn't know where he is", "spots that don't disappear under a glass",
                     "I don't feel well", "my dad not wake up when I shout", "she can not breathe", "he isnt breathing", "she wasnt responding",
                     "my mum did not know who I was", "he is talking to people who are not there", "he isnt awake",
                     "he doesn't have a pulse", "his pupils are not the same size"] {
            #expect(parser.parse(text).negative.isEmpty, "\(text): \(parser.parse(text).clauses)")
        }
    }

    /// The baby's movements felt from inside say a pregnancy; a baby's own age and movements do not.
    @Test func feltMovementsArePregnancy() {
        #expect(parser.parse("I didn't feel the baby move today, 36 weeks").pregnant)
        #expect(parser.parse("fewer of the baby's kicks since this morning").pregnant)
        #expect(!parser.parse("my baby is 3 weeks old and not moving her arm").pregnant)
    }

    /// A clause that only gives a normal temperature says no finding ("temperature 36.8" is no fever).
    @Test func aNormalReadingSaysNoFinding() {
        let f = parser.parse("temperature 36.8 and a headache")
        #expect(f.vitals.temperatureC == 36.8)
        #expect(f.positive == ["a headache"], "\(f.clauses)")
        #expect(parser.parse("temp 37.9 and a headache").positive.contains("temp 37.9"))
        #expect(parser.parse("temperature 36.8 with a stiff neck").positive == ["a stiff neck"])
    }

    /// A decimal point does not end a sentence, and a measured fever is said as a finding too.
    @Test func aMeasuredFeverIsAFinding() {
        let f = parser.parse("temp 38.3 and shivering")
        #expect(f.vitals.temperatureC == 38.3)
        #expect(f.positive == ["temp 38.3", "shivering", "high temperature (38.3 °C measured)"])
        #expect(f.clauses.map(\.derived) == [false, false, true])
        #expect(!parser.parse("temp 37.2 and shivering").positive.contains { $0.hasPrefix("high temperature") })
        #expect(parser.parse("temperature 101.5F").positive.contains { $0.hasPrefix("high temperature") })
    }

    /// "been sick twice" is vomiting in British English and is said again in the library's words;
    /// "feel sick" and "been sick with a cold all week" are not.
    @Test func idiomsAreRestated() {
        #expect(parser.parse("hes been sick twice").positive.contains("vomiting"))
        #expect(!parser.parse("I feel sick").positive.contains("vomiting"))
        #expect(!parser.parse("he has been sick with a cold all week").positive.contains("vomiting"))
        #expect(!parser.parse("she hasn't been sick twice").positive.contains("vomiting"))
    }

    /// "but" starts a clause afresh, except when what follows only qualifies the clause before it.
    @Test func butThatOnlyQualifiesStaysWithItsClause() {
        #expect(parser.parse("the baby is moving but much less than normal").positive == ["the baby is moving but much less than normal"])
        #expect(parser.parse("kicking but not as much as usual").clauses.count == 1)
        #expect(parser.parse("I have a cough but no fever").clauses.count == 2)
        // The movements felt, said alone, are the reassurance; fewer of them are the finding.
        #expect(parser.parse("no bleeding, baby moving").positive.isEmpty)
        #expect(!parser.parse("baby moving less than usual").positive.isEmpty)
    }

    /// An idiom whose own words mislead is read as its restatement alone: "can't breathe through my
    /// nose" is a blocked nose, and no reader sees a struggle for breath in it.
    @Test func aMisleadingIdiomIsReplaced() {
        let nose = parser.parse("I can't breathe through my nose, had a cold for 3 days")
        #expect(nose.positive.contains("blocked nose"))
        #expect(!nose.positive.contains { $0.contains("breathe") })
        let blocked = parser.parse("nose totally blocked cant breathe through it")
        #expect(blocked.positive == ["blocked nose"])
        // Breathing fine through the nose, or struggling for breath, stays as said.
        #expect(parser.parse("I can breathe through my nose fine").positive.allSatisfy { $0 != "blocked nose" })
        #expect(parser.parse("I can't breathe, my chest is tight").positive.contains { $0.contains("breathe") })
    }

    /// A condition asked about or feared is no history: "is this mouth cancer?" is not a cancer history.
    @Test func historyAskedAboutIsNoHistory() {
        #expect(parser.parse("is this mouth cancer?").history.isEmpty)
        #expect(parser.parse("worried I might have diabetes, always thirsty").history.isEmpty)
        #expect(parser.parse("I'm scared because I have diabetes").history == ["diabetes"])
    }

    @Test func historyIsDeniedOnlyByACueAndSetFillers() {
        #expect(parser.parse("non-insulin dependent diabetes, sore on my foot").history.contains("diabetes"))
        #expect(parser.parse("not well controlled diabetes").history.contains("diabetes"))
        #expect(parser.parse("not sure if warfarin matters").history.contains("on blood thinners"))
        #expect(!parser.parse("no known heart disease").history.contains("heart disease"))
        #expect(!parser.parse("I have never had diabetes").history.contains("diabetes"))
    }

    @Test func theHighestTemperatureReadingCounts() {
        #expect(parser.parse("temperature was 37.5 this morning, now it's 38.6").vitals.temperatureC == 38.6)
        #expect(parser.parse("temp 39 yesterday, 37.2 today").vitals.temperatureC == 39)
        #expect(parser.parse("I took 37.5 mg of something, temperature normal").vitals.temperatureC == nil)
    }

    @Test(arguments: [
        ("my 2-year-old has a fever", 2.0, nil as Findings.Sex?), ("45 yo male with chest pain", 45, .male),
        ("a 65-year-old woman with cough", 65, .female), ("my 6 week old baby is hot", 6.0 / 52, nil),
        ("my 3 month old son", 0.25, .male), ("I'm 30 and pregnant", 30, .female), ("my newborn is yellow", 0.05, nil),
        // In words, and a person's years without "old".
        ("our son is six weeks old and hot", 6.0 / 52, .male), ("my daughter 16 years, fainted playing netball", 16, .female),
    ])
    func ageAndSex(text: String, age: Double, sex: Findings.Sex?) {
        let f = parser.parse(text)
        #expect(abs((f.ageYears ?? -1) - age) < 0.01, "\(text) → \(String(describing: f.ageYears))")
        if let sex { #expect(f.sex == sex) }
    }

    /// "my daughter 16 years" is her age, not how long anything has lasted; a thermometer's
    /// reading is a temperature.
    @Test func anAgeIsNoDurationAndAThermometerReads() {
        let f = parser.parse("my mum 74 years, suddenly dizzy")
        #expect(f.ageYears == 74 && f.durationDays == nil, "\(f.durationDays as Any)")
        #expect(parser.parse("the thermometer under his arm says 38.2").vitals.temperatureC == 38.2)
        // A compound number is read whole ("sixty five" is 65, not 5); a baby's weeks are an age.
        #expect(parser.parse("I am sixty five years old with chest pain").ageYears == 65)
        let baby = parser.parse("baby girl, 5 weeks, temperature 38.1")
        #expect(abs((baby.ageYears ?? 1) - 5.0 / 52) < 0.01 && baby.durationDays == nil, "\(baby.ageYears as Any) \(baby.durationDays as Any)")
    }

    @Test func vitalsWithUnits() {
        let f = parser.parse("T 39.4C, HR 124 bpm, BP 190/120 mmHg, SpO2 89% on room air")
        #expect(abs((f.vitals.temperatureC ?? 0) - 39.4) < 0.01)
        #expect(f.vitals.heartRate == 124)
        #expect(f.vitals.systolic == 190 && f.vitals.diastolic == 120)
        #expect(f.vitals.oxygenSaturation == 89)
        let g = parser.parse("temperature of 104°F and oxygen level 91%")
        #expect(abs((g.vitals.temperatureC ?? 0) - 40) < 0.01)
        #expect(g.vitals.oxygenSaturation == 91)
        #expect(g.sex == nil)
        // A home meter's reading told as a change from usual; a weight is no reading.
        #expect(parser.parse("his oxygen meter normally reads about 93 or 94, but today it has been stuck at 85").vitals.oxygenSaturation == 85)
        #expect(parser.parse("he weighed 90 but has dropped to 85 kg").vitals.oxygenSaturation == nil)
        // A fall is what matters: the lowest reading wins.
        #expect(parser.parse("my sats dropped from 96% to 88%").vitals.oxygenSaturation == 88)
        #expect(parser.parse("oxygen was 97% yesterday, today 89%").vitals.oxygenSaturation == 89)
        #expect(parser.parse("the pulse oximeter is now reading 87").vitals.oxygenSaturation == 87)
        // A number told with another vital sign is not a saturation.
        #expect(parser.parse("my oxygen is fine but my pulse dropped to 55").vitals.oxygenSaturation == nil)
        #expect(parser.parse("blood pressure has come down to 85 over 50, oxygen ok").vitals.oxygenSaturation == nil)
        #expect(parser.parse("sats 95 pulse 120 temp 38.5").vitals.oxygenSaturation == 95)
        #expect(parser.parse("mum 78 covid, o2 sats 89 / hr 105 / temp 38.4").vitals.oxygenSaturation == 89)
        #expect(parser.parse("My oximeter. It says 85%. Bit short of breath with covid").vitals.oxygenSaturation == 85)
        #expect(parser.parse("sats 97 on room air, he's 84 and has a cold").vitals.oxygenSaturation == 97)
        #expect(parser.parse("sats 98 at 10:55").vitals.oxygenSaturation == 98)
        #expect(parser.parse("my mum is 85 and her oxygen is 88").vitals.oxygenSaturation == 88)
    }

    @Test func durationOnsetSeverityPregnancyHistory() {
        let f = parser.parse("Sudden worst headache of my life for 3 days; I'm 20 weeks pregnant, diabetic, on warfarin, back from Kenya")
        #expect(f.durationDays == 3)
        #expect(f.suddenOnset && f.severe && f.pregnant)
        #expect(Set(f.history).isSuperset(of: ["diabetes", "on blood thinners", "recent travel"]))
        #expect(parser.parse("cough since yesterday").durationDays == 1)
        #expect(parser.parse("rash for two weeks").durationDays == 14)
        #expect(parser.parse("I am not pregnant").pregnant == false)
    }

    /// How long the trouble has lasted argues against short illnesses, so it is read only from
    /// explicit spans, never from an age, a pregnancy or a past event.
    @Test(arguments: [
        ("constipated for 4 weeks even with laxatives", 28.0), ("over the past few months my vision got blurry", 90.0),
        ("cough 3 days now", 3.0), ("back pain for months", 60.0), ("lump since 2 weeks", 14.0),
        ("boy 2 year put a battery in his mouth 20 minutes before", nil), ("I'm 16 weeks pregnant and itchy", nil),
        ("I had cataracts done a few years back, eye red since this evening", nil), ("my son is 5 years old with a rash", nil),
    ] as [(String, Double?)])
    func lastedIsReadOnlyFromExplicitSpans(_ text: String, _ days: Double?) {
        #expect(parser.parse(text).lastedDays == days, "\(text)")
    }

    @Test func britishAndAmericanSpellingsMeet() {
        #expect(Set(TextMatch.stems("bloody diarrhea")) == Set(TextMatch.stems("diarrhoea bloody")))
        #expect(TextMatch.stem("haemorrhoids") == TextMatch.stem("hemorrhoids"))
        #expect(TextMatch.stem("oesophagus") == TextMatch.stem("esophagus") && TextMatch.stem("ischaemia") == TextMatch.stem("ischemia"))
        #expect(TextMatch.stem("hour") == "hour" && TextMatch.stem("fever") == "fever", "only the listed beginnings fold")
    }

    @Test func anAmountInWordsIsOneItemAndTextingWithSplits() {
        #expect(parser.parse("she can only manage two or three words before she stops for breath").clauses.count == 1)
        #expect(parser.parse("cough for 2 or 3 days").clauses.count == 1)
        #expect(parser.parse("no cough or fever").negative == ["cough", "fever"], "a list of findings still splits")
        #expect(parser.parse("i can walk on it w a slight limp").positive == ["a slight limp"])
    }

    @Test func agesInWordsAboveTen() {
        #expect(parser.parse("my husband is sixty-seven and woke with a red eye").ageYears == 67)
        #expect(parser.parse("I am twenty four and have a cough").ageYears == 24)
        #expect(parser.parse("I am nineteen, sore throat").ageYears == 19)
        #expect(parser.parse("coughing for twenty minutes").ageYears == nil)
    }

    /// Sentence embeddings cannot tell "I can move it" from "can't move it"; the polarity words can.
    @Test func anAbilityIsToldFromItsLoss() throws {
        let polarity = try #require(TestKnowledge.knowledge.findings.polarity)
        #expect(polarity.affirmsAbility("i can move it every which way"))
        #expect(polarity.affirmsAbility("she is able to hold a mug"))
        #expect(!polarity.affirmsAbility("he can hardly move his toes"), "a limited ability is a finding")
        #expect(!polarity.affirmsAbility("i can't move it"))
        #expect(!polarity.affirmsAbility("can i stretch it out"), "a question asserts nothing")
        #expect(!polarity.affirmsAbility("i can stretch and fix it", in: "It is a trapped nerve, I can stretch and fix it?"))
        #expect(polarity.affirmsAbility("i can stretch and fix it", in: "I can stretch and fix it. It is fine."))
        #expect(!polarity.affirmsAbility("she can talk", in: "She can talk but her words are slurred"), "an ability limited after it")
        #expect(polarity.saysLoss("can't put weight on it") && polarity.saysLoss("unable to lift the arm"))
        #expect(!polarity.saysLoss("pain when moving the arm"))
    }

    @Test func aSubjectWithItsOwnVerbEndsADenial() {
        let f = parser.parse("She is not able to put any weight on her right leg and the leg is looking shorter and turned outside")
        #expect(f.positive.contains("the leg is looking shorter"), "\(f.clauses)")
        #expect(parser.parse("no fever and the cough").negative == ["fever", "the cough"], "a bare noun stays in the denied list")
    }
}
