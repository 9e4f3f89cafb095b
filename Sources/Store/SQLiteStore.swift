import Foundation
import GRDB
import Linear

/// The index: one SQLite file (WAL mode, so searches run while an index run writes) holding
/// documents, chunks, their embeddings and an FTS5 index. It records the embedding model and
/// dimension it was built with and refuses to mix vectors of another model.
public final class SQLiteStore: Sendable {
    public let path: String
    public let modelID: String
    public let dimension: Int
    let pool: DatabasePool

    public static var schemaVersion: Int { StoreSchema.version }

    /// How much of the file SQLite may map (well above any index this project builds).
    static let mmapBytes = 1 << 30

    /// Opens (creating if absent) the index at `path` for vectors of `modelID` × `dimension`.
    /// `maxPageCount` caps the file size (SQLite's `max_page_count`); tests use it to make the
    /// disk "full" at a chosen point.
    public init(path: String, modelID: String, dimension: Int, maxPageCount: Int? = nil) throws {
        self.path = path
        self.modelID = modelID
        self.dimension = dimension
        try Self.checkHeader(path)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // Pages are read from a memory map of the file instead of one pread per 4 KB page:
            // loading the index reads ~10 MB (vectors, profiles, concepts), and the system calls and
            // copies were a tenth of a cold `health ask`. Corruption is still detected as before.
            try db.execute(sql: "PRAGMA mmap_size = \(Self.mmapBytes)")
            if let maxPageCount { try db.execute(sql: "PRAGMA max_page_count = \(maxPageCount)") }
        }
        do {
            pool = try DatabasePool(path: path, configuration: config)
            try pool.write { db in
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if !tables.isEmpty && !tables.contains("health_meta") {
                    throw StoreError.foreign(path: path, detail: "tables \(tables.prefix(4).joined(separator: ", "))")
                }
            }
            try StoreSchema.migrator.migrate(pool)
            try pool.write { db in
                let meta = try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT key, value FROM health_meta")
                    .map { ($0["key"] as String, $0["value"] as String) })
                if let stored = meta["schema_version"], let v = Int(stored), v > StoreSchema.version {
                    throw StoreError.newerSchema(path: path, stored: v, supported: StoreSchema.version)
                }
                if let storedModel = meta["embedding_model"], let storedDim = meta["dimension"] {
                    if storedModel != modelID || Int(storedDim) != dimension {
                        throw StoreError.modelMismatch(path: path, stored: "\(storedModel) (\(storedDim)-d)", requested: "\(modelID) (\(dimension)-d)")
                    }
                } else {
                    for (k, v) in [("schema_version", "\(StoreSchema.version)"), ("embedding_model", modelID), ("dimension", "\(dimension)")] {
                        try db.execute(sql: "INSERT OR REPLACE INTO health_meta(key, value) VALUES (?, ?)", arguments: [k, v])
                    }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.map(error, path: path)
        }
    }

    /// A non-empty file that does not start with SQLite's magic header is not ours to open.
    static func checkHeader(_ path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 16)) ?? Data()
        if !head.isEmpty && head != Data("SQLite format 3\0".utf8) {
            throw StoreError.corrupt(path: path, detail: "file does not start with the SQLite header")
        }
    }

    /// Removes the database, its WAL/SHM side files and its artifact cache files (for `--rebuild`).
    public static func remove(path: String) throws {
        for suffix in ["", "-wal", "-shm"] {
            let p = path + suffix
            if FileManager.default.fileExists(atPath: p) { try FileManager.default.removeItem(atPath: p) }
        }
        let url = URL(fileURLWithPath: path), prefix = url.lastPathComponent + "-"
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        for name in siblings where name.hasPrefix(prefix) && name.hasSuffix(cacheSuffix) {
            try FileManager.default.removeItem(at: url.deletingLastPathComponent().appendingPathComponent(name))
        }
    }

    static let cacheSuffix = ".cache"

    /// Where the mappable copy of artifact `name` lives (`ArtifactCacheFile`): beside the index,
    /// named after it, so each index has its own and `remove(path:)` finds them.
    public func cachePath(forArtifact name: String) -> String { path + "-" + name + Self.cacheSuffix }

    static func map(_ error: Error, path: String) -> StoreError {
        if let e = error as? StoreError { return e }
        if let e = error as? DatabaseError {
            switch e.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT: return .corrupt(path: path, detail: e.message ?? "\(e)")
            case .SQLITE_FULL: return .diskFull(path: path, detail: e.message ?? "\(e)")
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return .readOnly(path: path, detail: e.message ?? "\(e)")
            default: return .sqlite(path: path, detail: "\(e)")
            }
        }
        return .sqlite(path: path, detail: "\(error)")
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.read(body) } catch { throw Self.map(error, path: path) }
    }

    /// One SELECT on a reader connection without BEGIN/COMMIT around it: a single statement
    /// already reads one consistent snapshot, and the two extra statements cost as much as a
    /// short query (the per-question reads run hundreds of times a second in the server).
    func readStatement<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.unsafeRead(body) } catch { throw Self.map(error, path: path) }
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try pool.write(body) } catch { throw Self.map(error, path: path) }
    }

    // MARK: writing

    /// path → content hash of every indexed document.
    /// The journal mode in effect ("wal" for every store opened here).
    public func journalMode() throws -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }

    public func documentHashes() throws -> [String: String] {
        try read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT path, content_hash FROM documents")
                .map { ($0["path"] as String, $0["content_hash"] as String) })
        }
    }

    /// Replaces one document — its row, chunks, vectors and FTS entries — in a single transaction,
    /// so a crash leaves either the old version or the new one, never a mix.
    public func replaceDocument(_ document: DocumentInput, chunks: [ChunkInput], vectors: Matrix) throws {
        precondition(vectors.rows == chunks.count && (chunks.isEmpty || vectors.cols == dimension), "one \(dimension)-d vector per chunk")
        try write { db in
            try db.execute(sql: "DELETE FROM documents WHERE path = ?", arguments: [document.path])
            try db.execute(sql: """
                INSERT INTO documents(path, content_hash, title, kind, front_matter, indexed_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [document.path, document.contentHash, document.title, document.kind, document.frontMatterJSON,
                                 Date().timeIntervalSince1970])
            let documentID = db.lastInsertedRowID
            let insertChunk = try db.makeStatement(sql: "INSERT INTO chunks(documentId, ordinal, heading_path, text, token_count) VALUES (?, ?, ?, ?, ?)")
            let insertVector = try db.makeStatement(sql: "INSERT INTO vectors(chunk_id, embedding) VALUES (?, ?)")
            for (i, chunk) in chunks.enumerated() {
                try insertChunk.execute(arguments: [documentID, chunk.ordinal, chunk.headingPath, chunk.text, chunk.tokenCount])
                let chunkID = db.lastInsertedRowID
                let blob = vectors.storage[(i * dimension)..<((i + 1) * dimension)].withUnsafeBufferPointer { Data(buffer: $0) }
                try insertVector.execute(arguments: [chunkID, blob])
            }
        }
    }

    public func removeDocuments(paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try write { db in
            for p in paths { try db.execute(sql: "DELETE FROM documents WHERE path = ?", arguments: [p]) }
        }
    }

    public struct Counts: Sendable, Equatable { public var documents: Int; public var chunks: Int; public var vectors: Int }

    public func counts() throws -> Counts {
        try read { db in
            Counts(documents: try Int.fetchOne(db, sql: "SELECT count(*) FROM documents") ?? 0,
                   chunks: try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks") ?? 0,
                   vectors: try Int.fetchOne(db, sql: "SELECT count(*) FROM vectors") ?? 0)
        }
    }

    /// Checks the invariants a killed run must not break: every chunk has its vector and FTS row,
    /// every vector its chunk, SQLite's own integrity check passes.
    public func consistencyProblems() throws -> [String] {
        try read { db in
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { problems += integrity }
            if let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks WHERE id NOT IN (SELECT chunk_id FROM vectors)"), n > 0 {
                problems.append("\(n) chunks without vectors")
            }
            if let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)"), n > 0 {
                problems.append("\(n) vectors without chunks")
            }
            if let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM documents WHERE id NOT IN (SELECT documentId FROM chunks)"), n > 0 {
                problems.append("\(n) documents without chunks")
            }
            let fts = try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks_fts") ?? 0
            let chunks = try Int.fetchOne(db, sql: "SELECT count(*) FROM chunks") ?? 0
            if fts != chunks { problems.append("FTS has \(fts) rows for \(chunks) chunks") }
            return problems
        }
    }

    // MARK: reading

    /// All vectors with the document properties filters need, in chunk-id order.
    public func loadVectorTable() throws -> VectorTable {
        try read { db in
            // Sized up front: the 6 MB of vectors are appended once, not regrown and copied.
            let expected = try Int.fetchOne(db, sql: "SELECT count(*) FROM vectors") ?? 0
            var ids: [Int64] = [], rowDocs: [Int32] = [], storage: [Float] = []
            ids.reserveCapacity(expected); rowDocs.reserveCapacity(expected); storage.reserveCapacity(expected * dimension)
            var docs: [VectorTable.DocumentInfo] = []
            var docIndex: [Int64: Int32] = [:]
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT v.chunk_id, v.embedding, d.id AS doc_id, d.kind, d.path, d.front_matter
                FROM vectors v JOIN chunks c ON c.id = v.chunk_id JOIN documents d ON d.id = c.documentId
                ORDER BY v.chunk_id
                """)
            while let row = try cursor.next() {
                let chunkID: Int64 = row[0]
                // The blob is read in place (no Data copy per row).
                let bytes = try row.withUnsafeData(atIndex: 1) { blob -> Int in
                    guard let blob, blob.count == dimension * 4 else { return blob?.count ?? 0 }
                    blob.withUnsafeBytes { storage.append(contentsOf: $0.bindMemory(to: Float.self)) }
                    return blob.count
                }
                guard bytes == dimension * 4 else {
                    throw StoreError.corrupt(path: path, detail: "vector of chunk \(chunkID) has \(bytes) bytes")
                }
                ids.append(chunkID)
                let docID: Int64 = row[2]
                if let i = docIndex[docID] { rowDocs.append(i) } else {
                    let i = Int32(docs.count)
                    docIndex[docID] = i
                    docs.append(.init(kind: row[3], path: row[4], frontMatterJSON: row[5]))
                    rowDocs.append(i)
                }
            }
            return VectorTable(chunkIDs: ids, vectors: Matrix(rows: ids.count, cols: dimension, storage: storage),
                               rowDocuments: rowDocs, documents: docs)
        }
    }

    /// BM25 over chunk text and headings. Lower bm25() is better in SQLite; scores are returned
    /// negated so that higher is better everywhere in this package.
    public func keywordSearch(_ query: String, limit: Int, filter: SearchFilter = SearchFilter()) throws -> [(chunkID: Int64, score: Double)] {
        guard let pattern = Self.anyTokenPattern(query), limit > 0 else { return [] }
        if filter.isEmpty {
            // Unfiltered (every question): the FTS table alone, no joins, one cached statement.
            return try readStatement { db in
                let statement = try db.cachedStatement(sql: "SELECT rowid, bm25(chunks_fts) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?")
                return try Row.fetchAll(statement, arguments: [pattern, limit]).map { ($0[0] as Int64, -($0[1] as Double)) }
            }
        }
        var sql = """
            SELECT c.id, bm25(chunks_fts) AS score FROM chunks_fts
            JOIN chunks c ON c.id = chunks_fts.rowid JOIN documents d ON d.id = c.documentId
            WHERE chunks_fts MATCH ?
            """
        var arguments: StatementArguments = [pattern]
        if let kind = filter.kind { sql += " AND d.kind = ?"; arguments += [kind] }
        if let prefix = filter.pathPrefix { sql += " AND substr(d.path, 1, length(?)) = ?"; arguments += [prefix, prefix] }
        if let field = filter.field {
            sql += " AND EXISTS (SELECT 1 FROM json_each(d.front_matter, ?) WHERE lower(value) = lower(?))"
            arguments += ["$.\"\(field.key.replacingOccurrences(of: "\"", with: ""))\"", field.value]
        }
        sql += " ORDER BY score LIMIT ?"
        arguments += [limit]
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { ($0[0] as Int64, -($0[1] as Double)) }
        }
    }

    /// `"tok1" OR "tok2" …` over the query's words (letters and digits), each quoted so FTS5
    /// syntax in user text is inert; the table's own tokenizer (porter unicode61) then stems them.
    /// Built by hand because GRDB's `FTS5Pattern(matchingAnyTokenIn:)` opens a throwaway in-memory
    /// database per call, which cost more than the search itself.
    static func anyTokenPattern(_ query: String) -> String? {
        var seen = Set<String>()
        let tokens = query.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init).filter { seen.insert($0).inserted }
        return tokens.isEmpty ? nil : tokens.prefix(64).map { "\"\($0)\"" }.joined(separator: " OR ")
    }

    /// Chunks with their documents, by id.
    public func chunks(ids: [Int64]) throws -> [Int64: StoredChunk] {
        guard !ids.isEmpty else { return [:] }
        return try readStatement { db in
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
            let rows = try Row.fetchAll(db, sql: """
                SELECT c.id, d.path, d.title, d.kind, c.ordinal, c.heading_path, c.text, c.token_count
                FROM chunks c JOIN documents d ON d.id = c.documentId WHERE c.id IN (\(placeholders))
                """, arguments: StatementArguments(ids))
            var out: [Int64: StoredChunk] = [:]
            for r in rows {
                out[r[0]] = StoredChunk(id: r[0], documentPath: r[1], documentTitle: r[2], documentKind: r[3], ordinal: r[4],
                                        headingPath: r[5], text: r[6], tokenCount: r[7])
            }
            return out
        }
    }

    /// Stores a derived artifact (replacing any previous one of that name).
    public func putArtifact(name: String, fingerprint: String, meta: String, data: Data) throws {
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO artifacts(name, fingerprint, meta, data) VALUES (?, ?, ?, ?)",
                           arguments: [name, fingerprint, meta, data])
        }
    }

    public func artifact(name: String) throws -> (fingerprint: String, meta: String, data: Data)? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT fingerprint, meta, data FROM artifacts WHERE name = ?", arguments: [name])
                .map { ($0[0], $0[1], $0[2]) }
        }
    }

    /// Reads a stored artifact without copying its blob: `body` sees the bytes where SQLite read
    /// them, valid only during the call (the Complete model's matrices are tens of MB). nil if absent.
    public func withArtifact<T>(name: String, _ body: (_ fingerprint: String, _ meta: String, _ data: UnsafeRawBufferPointer) throws -> T) throws -> T? {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT fingerprint, meta, data FROM artifacts WHERE name = ?", arguments: [name])
            guard let row = try rows.next() else { return nil }
            let fingerprint: String = row[0], meta: String = row[1]
            return try row.withUnsafeData(atIndex: 2) { data in
                guard let data else { return try body(fingerprint, meta, UnsafeRawBufferPointer(start: nil, count: 0)) }
                return try data.withUnsafeBytes { try body(fingerprint, meta, $0) }
            }
        }
    }

    /// A stored artifact's fingerprint, meta and byte count, without reading its blob (SQLite's
    /// length() of a blob reads the record header only). nil if absent.
    public func artifactInfo(name: String) throws -> (fingerprint: String, meta: String, bytes: Int)? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT fingerprint, meta, length(data) FROM artifacts WHERE name = ?", arguments: [name])
                .map { ($0[0], $0[1], $0[2]) }
        }
    }

    /// Bytes of a stored artifact (to budget its load before loading it).
    public func artifactSize(name: String) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT length(data) + length(meta) FROM artifacts WHERE name = ?", arguments: [name]) ?? 0 }
    }

    /// The chunks of one document, in order.
    public func chunks(documentPath: String) throws -> [StoredChunk] {
        try readStatement { db in
            try Row.fetchAll(db, sql: """
                SELECT c.id, d.path, d.title, d.kind, c.ordinal, c.heading_path, c.text, c.token_count
                FROM chunks c JOIN documents d ON d.id = c.documentId WHERE d.path = ? ORDER BY c.ordinal
                """, arguments: [documentPath]).map {
                StoredChunk(id: $0[0], documentPath: $0[1], documentTitle: $0[2], documentKind: $0[3], ordinal: $0[4],
                            headingPath: $0[5], text: $0[6], tokenCount: $0[7])
            }
        }
    }

    /// A fingerprint of every indexed document's content hash: changes whenever the corpus does.
    public func corpusFingerprint() throws -> String {
        try read { db in try corpusFingerprint(db) }
    }

    func corpusFingerprint(_ db: Database) throws -> String {
        let hashes = try String.fetchAll(db, sql: "SELECT path || ':' || content_hash FROM documents ORDER BY path")
        var h: UInt64 = 1469598103934665603
        for s in hashes { for b in s.utf8 { h = (h ^ UInt64(b)) &* 1099511628211 } }
        return String(h, radix: 16) + "-\(hashes.count)"
    }

    /// Every document of a kind and the corpus fingerprint, read from one snapshot (so whatever is
    /// derived from the documents can be stored under that fingerprint).
    public func documentsWithFingerprint(kind: String) throws -> (documents: [DocumentRow], corpusFingerprint: String) {
        try read { db in (try documents(db, kind: kind), try corpusFingerprint(db)) }
    }

    public struct DocumentRow: Sendable { public var path: String; public var title: String; public var kind: String; public var frontMatterJSON: String }

    /// Every document of a kind (e.g. all conditions, for the analysis layer's profiles).
    public func documents(kind: String? = nil) throws -> [DocumentRow] {
        try read { db in try documents(db, kind: kind) }
    }

    func documents(_ db: Database, kind: String?) throws -> [DocumentRow] {
        let rows = kind == nil
            ? try Row.fetchAll(db, sql: "SELECT path, title, kind, front_matter FROM documents ORDER BY path")
            : try Row.fetchAll(db, sql: "SELECT path, title, kind, front_matter FROM documents WHERE kind = ? ORDER BY path", arguments: [kind])
        return rows.map { DocumentRow(path: $0[0], title: $0[1], kind: $0[2], frontMatterJSON: $0[3]) }
    }
}
