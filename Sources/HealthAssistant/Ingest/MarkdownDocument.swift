import Foundation
import Yams

/// A parsed corpus file: YAML front matter (if any) and the body split into sections by heading.
public struct MarkdownDocument: Sendable {
    public struct Section: Sendable, Equatable {
        /// Headings from the top, e.g. ["Meningitis", "When to get help"].
        public var headingPath: [String]
        public var level: Int
        public var text: String
    }

    public var frontMatter: [String: Any] { frontMatterBox.value }
    let frontMatterBox: FrontMatterBox
    public var sections: [Section]
    public var title: String

    /// Fails only on malformed front matter; a file without front matter is plain Markdown.
    public init(text: String, fallbackTitle: String) throws {
        var body = text
        var front: [String: Any] = [:]
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        if normalized.hasPrefix("---\n") {
            let rest = normalized.dropFirst(4)
            guard let end = rest.range(of: "\n---\n") ?? (rest.hasSuffix("\n---") ? rest.range(of: "\n---", options: .backwards) : nil) else {
                throw MarkdownError.unterminatedFrontMatter
            }
            let yaml = String(rest[rest.startIndex..<end.lowerBound])
            do {
                guard let loaded = try Yams.load(yaml: yaml) else { throw MarkdownError.frontMatter("empty front matter") }
                guard let dict = loaded as? [String: Any] else { throw MarkdownError.frontMatter("front matter is not a mapping") }
                front = dict
            } catch let error as MarkdownError {
                throw error
            } catch {
                throw MarkdownError.frontMatter("\(error)".replacingOccurrences(of: "\n", with: " "))
            }
            body = String(rest[end.upperBound...])
        } else {
            body = normalized
        }
        frontMatterBox = FrontMatterBox(value: front)
        let title = (front["name"] as? String) ?? (front["title"] as? String)
        let parsed = Self.sections(of: body)
        let resolvedTitle = title ?? parsed.first(where: { $0.level == 1 })?.headingPath.last ?? fallbackTitle
        self.title = resolvedTitle
        // Sections carry the document title at the root of their heading path.
        sections = parsed.map { section in
            var s = section
            if s.headingPath.first != resolvedTitle { s.headingPath.insert(resolvedTitle, at: 0) }
            return s
        }.filter { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    static func sections(of body: String) -> [Section] {
        var sections: [Section] = []
        var stack: [(level: Int, title: String)] = []
        var buffer: [String] = []
        var inFence = false
        func flush() {
            let text = buffer.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty || !stack.isEmpty {
                sections.append(Section(headingPath: stack.map(\.title), level: stack.last?.level ?? 0, text: text))
            }
            buffer = []
        }
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            if !inFence, line.hasPrefix("#") {
                let hashes = line.prefix { $0 == "#" }.count
                let title = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
                if hashes <= 6, !title.isEmpty, line.dropFirst(hashes).first == " " {
                    flush()
                    stack.removeAll { $0.level >= hashes }
                    stack.append((hashes, title))
                    continue
                }
            }
            buffer.append(String(line))
        }
        flush()
        return sections
    }

    /// Front matter as JSON (dates and other YAML scalars become strings).
    public var frontMatterJSON: String {
        func clean(_ v: Any) -> Any {
            switch v {
            case let s as String: return s
            case let b as Bool: return b
            case let i as Int: return i
            case let d as Double: return d
            case let list as [Any]: return list.map(clean)
            case let dict as [String: Any]: return dict.mapValues(clean)
            default: return "\(v)"
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: clean(frontMatter), options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `[String: Any]` from YAML is not Sendable; it is never mutated after parsing.
struct FrontMatterBox: @unchecked Sendable { let value: [String: Any] }

public enum MarkdownError: Error, CustomStringConvertible, Equatable {
    case unterminatedFrontMatter
    case frontMatter(String)
    public var description: String {
        switch self {
        case .unterminatedFrontMatter: return "front matter starts with --- but has no closing --- line"
        case .frontMatter(let detail): return "front matter is not valid YAML: \(detail)"
        }
    }
}
