import Linear

/// Exact nearest neighbours by inner product (vectors are unit length, so this is cosine).
///
/// One query: an int8 scan (a quarter of the bytes of fp32, on all cores) picks a shortlist, which
/// is re-scored in fp32 so the returned scores and order are exact fp32 values. Batches of queries
/// go through one fp32 sgemm, which is compute- rather than memory-bound. Filters become a row mask
/// applied while selecting, so a filtered search still returns k results when k exist.
public struct ExactVectorIndex: Sendable {
    public enum Precision: String, Sendable, CaseIterable { case fp32, int8 }

    public struct Hit: Sendable, Equatable {
        public let chunkID: Int64
        public let row: Int
        public let score: Float
    }

    public let table: VectorTable
    let codes: [Int8]
    let scales: [Float]
    public let shards: Int
    public var dimension: Int { table.vectors.cols }
    public var count: Int { table.count }

    public init(table: VectorTable, shards: Int = 2) {
        self.table = table
        (codes, scales) = Int8Quantization.quantize(table.vectors)
        self.shards = max(1, shards)
    }

    /// Bytes held in memory by the index (fp32 vectors + int8 codes + scales).
    public var residentBytes: Int { table.vectors.storage.count * 4 + codes.count + scales.count * 4 }

    func mask(_ filter: SearchFilter?) -> [Bool]? {
        guard let filter, !filter.isEmpty else { return nil }
        let allowedDocs = table.documents.map { d in
            filter.accepts(kind: d.kind, path: d.path, frontMatter: filter.field == nil ? [:] : d.frontMatter)
        }
        return table.rowDocuments.map { allowedDocs[Int($0)] }
    }

    /// Top-k rows for one query vector.
    public func search(_ query: [Float], k: Int, filter: SearchFilter? = nil, precision: Precision = .int8) -> [Hit] {
        precondition(query.count == dimension, "query has \(query.count) dims, index has \(dimension)")
        guard k > 0, count > 0 else { return [] }
        let allowed = mask(filter)
        switch precision {
        case .fp32:
            return select(scores(query), k: k, allowed: allowed)
        case .int8:
            return searchInt8(query, k: k, allowed: allowed)
        }
    }

    /// Exact fp32 top-k from scores already computed by `scores(_:)` (one gemv serving several readers).
    public func search(scores: [Float], k: Int, filter: SearchFilter? = nil) -> [Hit] {
        precondition(scores.count == count, "\(scores.count) scores for \(count) rows")
        guard k > 0, count > 0 else { return [] }
        return select(scores, k: k, allowed: mask(filter))
    }

    /// Exact fp32 inner product of `query` with every row (one gemv).
    public func scores(_ query: [Float]) -> [Float] {
        var scores = [Float](repeating: 0, count: count)
        guard count > 0 else { return scores }
        table.vectors.storage.withUnsafeBufferPointer { v in
            query.withUnsafeBufferPointer { q in
                scores.withUnsafeMutableBufferPointer { s in
                    BLAS.gemv(m: count, n: dimension, a: v.baseAddress!, lda: dimension, x: q.baseAddress!, y: s.baseAddress!)
                }
            }
        }
        return scores
    }

    func select(_ scores: [Float], k: Int, allowed: [Bool]?) -> [Hit] {
        scores.withUnsafeBufferPointer { s in
            TopK.select(s, k: k, where: allowed.map { a in { a[$0] } }).map { Hit(chunkID: table.chunkIDs[$0.index], row: $0.index, score: $0.score) }
        }
    }

    /// The shortlist is generous (≥ 10·k, ≥ 100): int8 rounding moves scores by ~1e-3, so true
    /// neighbours near the cut-off are kept and then ordered exactly by fp32.
    func searchInt8(_ query: [Float], k: Int, allowed: [Bool]?) -> [Hit] {
        let d = dimension, n = count
        var q8 = [Int8](repeating: 0, count: d)
        let qScale = query.withUnsafeBufferPointer { q in
            q8.withUnsafeMutableBufferPointer { Int8Quantization.quantizeRow(q.baseAddress!, count: d, into: $0.baseAddress!) }
        }
        let query8 = q8
        let shortlistSize = min(n, max(100, 10 * k))
        let shardCount = min(shards, max(1, n / 4096))
        let per = (n + shardCount - 1) / shardCount
        let codes = self.codes, scales = self.scales
        let partial: [[TopK.Hit]] = Parallel.map(shardCount) { s in
            let lo = s * per, hi = min(n, lo + per)
            guard lo < hi else { return [] }
            var scores = [Float](repeating: 0, count: hi - lo)
            codes.withUnsafeBufferPointer { c in
                scales.withUnsafeBufferPointer { sc in
                    query8.withUnsafeBufferPointer { qp in
                        scores.withUnsafeMutableBufferPointer { out in
                            Int8Quantization.scoreAll(codes: c.baseAddress! + lo * d, scales: sc.baseAddress! + lo, rows: 0..<(hi - lo), dim: d,
                                                      query: qp.baseAddress!, queryScale: qScale, into: out.baseAddress!)
                        }
                    }
                }
            }
            return scores.withUnsafeBufferPointer { buf in
                TopK.select(buf, k: shortlistSize, where: allowed.map { a in { a[lo + $0] } }).map { TopK.Hit(index: lo + $0.index, score: $0.score) }
            }
        }
        // Exact fp32 re-scoring of the shortlist.
        var rescored: [TopK.Hit] = []
        table.vectors.storage.withUnsafeBufferPointer { v in
            for hit in partial.joined() {
                let row = v.baseAddress! + hit.index * d
                var s: Float = 0
                for j in 0..<d { s += row[j] * query[j] }
                rescored.append(TopK.Hit(index: hit.index, score: s))
            }
        }
        rescored.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        return rescored.prefix(k).map { Hit(chunkID: table.chunkIDs[$0.index], row: $0.index, score: $0.score) }
    }

    /// The best score of any chunk of each document (index into `table.documents`), for
    /// document-level ranking over the whole corpus rather than only the top-k chunks. One gemv
    /// over the index (a few MFLOP for a corpus of thousands of chunks), done by the caller
    /// (`scores(_:)`), whose scores serve the chunk search too (`search(scores:k:filter:)`).
    public func bestScorePerDocument(scores: [Float]) -> [Float] {
        precondition(scores.count == count, "\(scores.count) scores for \(count) rows")
        var best = [Float](repeating: -1, count: table.documents.count)
        guard count > 0 else { return best }
        for (row, doc) in table.rowDocuments.enumerated() where scores[row] > best[Int(doc)] { best[Int(doc)] = scores[row] }
        return best
    }

    /// Top-k for many queries at once through one fp32 sgemm per block of rows.
    public func search(batch queries: Matrix, k: Int, filter: SearchFilter? = nil) -> [[Hit]] {
        precondition(queries.cols == dimension)
        guard queries.rows > 0, count > 0, k > 0 else { return Array(repeating: [], count: queries.rows) }
        let allowed = mask(filter)
        let scores = BLAS.matmul(queries, table.vectors, transposeB: true)
        return Parallel.map(queries.rows) { q in
            select(Array(scores.row(q)), k: k, allowed: allowed)
        }
    }
}
