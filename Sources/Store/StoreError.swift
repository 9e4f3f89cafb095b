/// Errors from the index database, each naming the file and the fix.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case corrupt(path: String, detail: String)
    case foreign(path: String, detail: String)
    case modelMismatch(path: String, stored: String, requested: String)
    case newerSchema(path: String, stored: Int, supported: Int)
    case diskFull(path: String, detail: String)
    case readOnly(path: String, detail: String)
    case sqlite(path: String, detail: String)

    public var description: String {
        switch self {
        case let .corrupt(path, detail):
            return "the index database \(path) is damaged or not an SQLite file (\(detail)). Fix: `health index --rebuild` (it recreates \(path) from the corpus)."
        case let .foreign(path, detail):
            return "\(path) is an SQLite database of another program (\(detail)); refusing to modify it. Fix: choose another --db path, or `health index --rebuild` to replace it."
        case let .modelMismatch(path, stored, requested):
            return "the index \(path) was built with embedding model \(stored), but this run uses \(requested). Fix: `health index --rebuild`."
        case let .newerSchema(path, stored, supported):
            return "the index \(path) has schema version \(stored), newer than this build supports (\(supported)). Fix: update health, or `health index --rebuild`."
        case let .diskFull(path, detail):
            return "disk full while writing \(path) (\(detail)); the last file was rolled back and the database is consistent. Fix: free space (`df -h`), then run `health index` again to resume."
        case let .readOnly(path, detail):
            return "cannot write the index \(path) (\(detail)). Fix: check permissions, or pass --db with a writable path."
        case let .sqlite(path, detail):
            return "SQLite error on \(path): \(detail)"
        }
    }
}
