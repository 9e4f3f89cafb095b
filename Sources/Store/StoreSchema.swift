import GRDB

/// The database layout, as GRDB migrations. Each migration runs once, in order, in a transaction.
enum StoreSchema {
    static let version = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-documents-chunks-vectors-fts") { db in
            try db.create(table: "health_meta") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "documents") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull().unique()
                t.column("content_hash", .text).notNull()
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull().indexed()
                t.column("front_matter", .text).notNull().defaults(to: "{}")
                t.column("indexed_at", .double).notNull()
            }
            try db.create(table: "chunks") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("document", onDelete: .cascade).notNull()
                t.column("ordinal", .integer).notNull()
                t.column("heading_path", .text).notNull()
                t.column("text", .text).notNull()
                t.column("token_count", .integer).notNull()
            }
            try db.create(table: "vectors") { t in
                t.primaryKey("chunk_id", .integer).references("chunks", onDelete: .cascade)
                t.column("embedding", .blob).notNull()
            }
            // External-content FTS5 kept in sync with `chunks` by GRDB's triggers.
            try db.create(virtualTable: "chunks_fts", using: FTS5()) { t in
                t.synchronize(withTable: "chunks")
                t.tokenizer = .porter(wrapping: .unicode61())
                t.column("text")
                t.column("heading_path")
            }
        }
        migrator.registerMigration("v2-artifacts") { db in
            // Derived, rebuildable data built at index time (e.g. the symptom-phrase matrix).
            try db.create(table: "artifacts") { t in
                t.primaryKey("name", .text)
                t.column("fingerprint", .text).notNull()
                t.column("meta", .text).notNull()
                t.column("data", .blob).notNull()
            }
        }
        return migrator
    }
}
