import Linear

/// Every stored vector in one contiguous matrix, with the document each row belongs to.
public struct VectorTable: Sendable {
    public struct DocumentInfo: Sendable {
        public var kind: String
        public var path: String
        /// The front matter as stored (JSON). Parsed only when a field filter needs it, so loading
        /// the index does not pay for parsing every document's front matter.
        public var frontMatterJSON: String
        public var frontMatter: [String: [String]] { FrontMatterFields.parse(frontMatterJSON) }
        public init(kind: String, path: String, frontMatterJSON: String = "{}") {
            self.kind = kind; self.path = path; self.frontMatterJSON = frontMatterJSON
        }
    }

    public var chunkIDs: [Int64]
    public var vectors: Matrix
    /// Index into `documents` for each row.
    public var rowDocuments: [Int32]
    public var documents: [DocumentInfo]

    public init(chunkIDs: [Int64], vectors: Matrix, rowDocuments: [Int32], documents: [DocumentInfo]) {
        self.chunkIDs = chunkIDs; self.vectors = vectors; self.rowDocuments = rowDocuments; self.documents = documents
    }

    public var count: Int { chunkIDs.count }
}

extension VectorTable {
    /// The document a chunk belongs to, without a database round trip (rows are in chunk-id order).
    public func document(ofChunk id: Int64) -> DocumentInfo? {
        var lo = 0, hi = chunkIDs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if chunkIDs[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < chunkIDs.count, chunkIDs[lo] == id else { return nil }
        return documents[Int(rowDocuments[lo])]
    }
}
