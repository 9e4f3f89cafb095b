import Foundation
import Store

/// The YAML of `rules/` as parsed trees (text, lists, mappings), kept in one file beside the index
/// so a cold process does not parse 230 KB of YAML again (most of loading the rules). The loader
/// still checks every key, reference and rule of the trees; only the YAML syntax pass is saved.
///
/// The file is keyed by the rules' fingerprint (every YAML file's name and bytes) and carries a
/// checksum of its body; a file for other rules, a damaged or foreign one, or one from another
/// layout is ignored, the YAML parsed, and the file written again.
///
/// Layout: the magic `HEALTHRC`, a UInt32 layout version, the fingerprint and the checksum as
/// counted UTF-8, then the body: a count of files, each a path and a tree. A tree is a tag byte
/// (0 text, 1 list, 2 mapping) and its contents; counts and lengths are little-endian UInt32.
enum ParsedRulesCache {
    static let magic = Array("HEALTHRC".utf8)
    static let layoutVersion: UInt32 = 1

    enum Tag: UInt8 { case text = 0, list = 1, mapping = 2 }

    /// The trees (relative path → tree) stored for rules with `fingerprint`, or nil.
    static func read(from url: URL, fingerprint: String) -> [String: Any]? {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe) else { return nil }
        return data.withUnsafeBytes { raw -> [String: Any]? in
            var r = ConditionProfileArchive.Reader(raw: raw)
            guard let head = try? r.take(8), Array(head) == magic, (try? r.value()) == Int(layoutVersion),
                  (try? r.string()) == fingerprint, let checksum = try? r.string(),
                  ContentChecksum.of(UnsafeRawBufferPointer(rebasing: raw[r.offset...])) == checksum else { return nil }
            do {
                var files: [String: Any] = [:]
                for _ in 0..<(try r.count()) { files[try r.string()] = try tree(&r) }
                return r.offset == raw.count ? files : nil
            } catch {
                return nil
            }
        }
    }

    static func tree(_ r: inout ConditionProfileArchive.Reader) throws -> Any {
        switch Tag(rawValue: try r.take(1)[0]) {
        case .text: return try r.string()
        case .list: return try (0..<r.count()).map { _ in try tree(&r) }
        case .mapping:
            let n = try r.count()
            var map: [String: Any] = [:]
            map.reserveCapacity(n)
            for _ in 0..<n { map[try r.string()] = try tree(&r) }
            return map
        case nil: throw ConditionProfileArchive.DecodeError.malformed
        }
    }

    /// Writes the trees (best effort: a folder that cannot be written only costs the next process
    /// the YAML parse). Trees holding anything but text, lists and text-keyed mappings are not stored.
    static func write(_ files: [String: Any], fingerprint: String, to url: URL) {
        var body = ConditionProfileArchive.Writer()
        body.count(files.count)
        for path in files.keys.sorted() {
            body.string(path)
            guard append(files[path]!, to: &body) else { return }
        }
        let checksum = body.bytes.withUnsafeBytes { ContentChecksum.of($0) }
        var head = ConditionProfileArchive.Writer()
        head.bytes = magic
        head.value(Int(layoutVersion))
        head.string(fingerprint)
        head.string(checksum)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(head.bytes + body.bytes).write(to: url, options: .atomic)
    }

    static func append(_ value: Any, to w: inout ConditionProfileArchive.Writer) -> Bool {
        if let s = value as? String {
            w.bytes.append(Tag.text.rawValue); w.string(s)
        } else if let list = value as? [Any] {
            w.bytes.append(Tag.list.rawValue); w.count(list.count)
            for item in list { guard append(item, to: &w) else { return false } }
        } else if let map = value as? [String: Any] {
            w.bytes.append(Tag.mapping.rawValue); w.count(map.count)
            for key in map.keys.sorted() {
                w.string(key)
                guard append(map[key]!, to: &w) else { return false }
            }
        } else {
            return false
        }
        return true
    }
}
