import Testing
@testable import HealthAssistant

struct LockedMemoTests {
    @Test func batchedLookupsReturnWhatWasInsertedAndListTheRest() {
        let memo = LockedMemo<Int>()
        memo.insert(["a": 1, "b": 2])
        let (found, missing) = memo.values(for: ["a", "c", "b", "d"])
        #expect(found == ["a": 1, "b": 2])
        #expect(missing == ["c", "d"])
        // A computed value is shared with later batched lookups.
        #expect(memo.value(for: "c") { 3 } == 3)
        #expect(memo.values(for: ["c"]).found == ["c": 3])
        memo.removeAll()
        #expect(memo.values(for: ["a"]).missing == ["a"])
    }
}
