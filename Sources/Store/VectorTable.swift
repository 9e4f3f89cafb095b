import Linear

/// Every stored vector in one contiguous matrix, with the document each row belongs to.
public struct VectorTable: Sendable {
    public struct DocumentInfo: Sendable {
        public var kind: String
        public var path: String
        public var frontMatter: [String: [String]]
        public init(kind: String, path: String, frontMatter: [String: [String]] = [:]) {
            self.kind = kind; self.path = path; self.frontMatter = frontMatter
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
