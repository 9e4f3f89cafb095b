import Foundation

/// A document as ingested: one file of the corpus.
public struct DocumentInput: Sendable, Equatable {
    public var path: String
    public var contentHash: String
    public var title: String
    public var kind: String
    /// Scalar and list fields of the YAML front matter, as JSON, for filters and the analysis layer.
    public var frontMatterJSON: String

    public init(path: String, contentHash: String, title: String, kind: String, frontMatterJSON: String = "{}") {
        self.path = path; self.contentHash = contentHash; self.title = title; self.kind = kind; self.frontMatterJSON = frontMatterJSON
    }
}

/// A chunk to store: text plus where it sits, for citations.
public struct ChunkInput: Sendable, Equatable {
    public var ordinal: Int
    public var headingPath: String
    public var text: String
    public var tokenCount: Int

    public init(ordinal: Int, headingPath: String, text: String, tokenCount: Int) {
        self.ordinal = ordinal; self.headingPath = headingPath; self.text = text; self.tokenCount = tokenCount
    }
}

/// A stored chunk with its document, as retrieval returns it.
public struct StoredChunk: Sendable, Equatable, Codable {
    public var id: Int64
    public var documentPath: String
    public var documentTitle: String
    public var documentKind: String
    public var ordinal: Int
    public var headingPath: String
    public var text: String
    public var tokenCount: Int
}

/// Which chunks a search may return. Applied before the top-k is chosen, never after.
public struct SearchFilter: Sendable, Equatable {
    public var kind: String?
    public var pathPrefix: String?
    /// A front-matter field and the value it must have (or contain, for lists), e.g. ("triage", "emergency").
    public var field: (key: String, value: String)?

    public init(kind: String? = nil, pathPrefix: String? = nil, field: (key: String, value: String)? = nil) {
        self.kind = kind; self.pathPrefix = pathPrefix; self.field = field
    }

    public var isEmpty: Bool { kind == nil && pathPrefix == nil && field == nil }

    public static func == (a: SearchFilter, b: SearchFilter) -> Bool {
        a.kind == b.kind && a.pathPrefix == b.pathPrefix && a.field?.key == b.field?.key && a.field?.value == b.field?.value
    }

    /// Whether a document with these properties passes.
    public func accepts(kind docKind: String, path: String, frontMatter: [String: [String]]) -> Bool {
        if let kind, kind != docKind { return false }
        if let pathPrefix, !path.hasPrefix(pathPrefix) { return false }
        if let field {
            guard let values = frontMatter[field.key] else { return false }
            return values.contains { $0.caseInsensitiveCompare(field.value) == .orderedSame }
        }
        return true
    }
}

/// Front-matter JSON flattened to field → string values (scalars become one-element lists).
public enum FrontMatterFields {
    public static func parse(_ json: String) -> [String: [String]] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [:] }
        var out: [String: [String]] = [:]
        for (key, value) in object {
            switch value {
            case let s as String: out[key] = [s]
            case let n as NSNumber: out[key] = [n.stringValue]
            case let list as [Any]: out[key] = list.compactMap { $0 as? String ?? ($0 as? NSNumber)?.stringValue }
            default: continue
            }
        }
        return out
    }
}
