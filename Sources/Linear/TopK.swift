/// Selects the k largest scores without sorting everything: a bounded min-heap, O(n log k).
public enum TopK {
    public struct Hit: Sendable, Equatable {
        public let index: Int
        public let score: Float
        public init(index: Int, score: Float) { self.index = index; self.score = score }
    }

    /// The `k` best (highest-score) entries, best first; ties broken by the lower index.
    public static func select(_ scores: UnsafeBufferPointer<Float>, k: Int, where include: ((Int) -> Bool)? = nil) -> [Hit] {
        guard k > 0 else { return [] }
        var heap: [Hit] = []
        heap.reserveCapacity(k)
        // Min-heap on (score, -index): the root is the worst kept hit.
        func worse(_ a: Hit, _ b: Hit) -> Bool { a.score < b.score || (a.score == b.score && a.index > b.index) }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count && worse(heap[l], heap[m]) { m = l }
                if r < heap.count && worse(heap[r], heap[m]) { m = r }
                if m == i { return }
                heap.swapAt(i, m); i = m
            }
        }
        func siftUp(_ start: Int) {
            var i = start
            while i > 0 {
                let p = (i - 1) / 2
                if worse(heap[i], heap[p]) { heap.swapAt(i, p); i = p } else { return }
            }
        }
        for i in 0..<scores.count {
            let s = scores[i]
            if s.isNaN { continue }
            if let include, !include(i) { continue }
            if heap.count < k {
                heap.append(Hit(index: i, score: s)); siftUp(heap.count - 1)
            } else if worse(heap[0], Hit(index: i, score: s)) {
                heap[0] = Hit(index: i, score: s); siftDown(0)
            }
        }
        return heap.sorted { worse($1, $0) }
    }

    public static func select(_ scores: [Float], k: Int) -> [Hit] {
        scores.withUnsafeBufferPointer { select($0, k: k) }
    }
}
