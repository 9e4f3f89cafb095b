import Foundation

/// Knowledge that cannot be trusted: a rules file that is missing, malformed or inconsistent. It
/// names the file, the rule and the field, and says how to fix it; `health ask` refuses to answer
/// from a partial rule set.
public struct KnowledgeError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file, relative to the project (e.g. `rules/safety/emergency.yaml`).
    public var file: String
    public var rule: String?
    public var field: String?
    public var message: String
    public var fix: String

    public init(file: String, rule: String? = nil, field: String? = nil, message: String, fix: String) {
        self.file = file; self.rule = rule; self.field = field; self.message = message; self.fix = fix
    }

    public var description: String {
        var place = file
        if let rule { place += ": rule '\(rule)'" }
        if let field { place += ", field '\(field)'" }
        return "\(place): \(message). Fix: \(fix)"
    }
}

/// A YAML mapping read strictly: every key must be known and every value of the expected type, so a
/// typo ("requries:") is an error rather than a rule that silently does less.
struct StrictMapping {
    let values: [String: Any]
    let file: String
    let rule: String?
    let path: String

    init(_ value: Any?, file: String, rule: String? = nil, path: String) throws {
        guard let dict = value as? [String: Any] else {
            throw KnowledgeError(file: file, rule: rule, field: path.isEmpty ? nil : path, message: "expected a mapping (key: value)",
                                 fix: "check the indentation and the YAML syntax")
        }
        values = dict; self.file = file; self.rule = rule; self.path = path
    }

    func field(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func error(_ key: String, _ message: String, fix: String) -> KnowledgeError {
        KnowledgeError(file: file, rule: rule, field: field(key), message: message, fix: fix)
    }

    func rejectUnknownKeys(_ allowed: [String]) throws {
        for key in values.keys.sorted() where !allowed.contains(key) {
            throw error(key, "unknown key", fix: "use one of: \(allowed.joined(separator: ", "))")
        }
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String) throws -> String? {
        guard let v = values[key] else { return nil }
        guard let s = v as? String else { throw error(key, "expected text, found a list or mapping", fix: "write one value") }
        return s
    }

    func requiredString(_ key: String) throws -> String {
        guard let s = try string(key), !s.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw error(key, "missing or empty", fix: "add '\(key):' with a value")
        }
        return s
    }

    func number(_ key: String) throws -> Double? {
        guard let v = values[key] else { return nil }
        if let s = v as? String, let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite { return d }
        throw error(key, "expected a number, found '\(v)'", fix: "write a plain number such as 38 or 0.25")
    }

    func requiredNumber(_ key: String) throws -> Double {
        guard let n = try number(key) else { throw error(key, "missing", fix: "add '\(key):' with a number") }
        return n
    }

    func bool(_ key: String) throws -> Bool? {
        guard let v = values[key] else { return nil }
        switch v as? String {
        case "true": return true
        case "false": return false
        default: throw error(key, "expected true or false, found '\(v)'", fix: "write true or false")
        }
    }

    /// A list of strings; a single string counts as a list of one.
    func strings(_ key: String) throws -> [String]? {
        guard let v = values[key] else { return nil }
        if let s = v as? String { return [s] }
        guard let list = v as? [Any] else { throw error(key, "expected a list of text", fix: "write [a, b] or one item per '- ' line") }
        return try list.enumerated().map { i, item in
            guard let s = item as? String else {
                throw error("\(key)[\(i)]", "expected text, found a list or mapping", fix: "write one phrase per item")
            }
            return s
        }
    }

    func list(_ key: String) throws -> [Any]? {
        guard let v = values[key] else { return nil }
        guard let list = v as? [Any] else { throw error(key, "expected a list", fix: "write one item per '- ' line") }
        return list
    }

    func mapping(_ key: String) throws -> StrictMapping? {
        guard let v = values[key] else { return nil }
        return try StrictMapping(v, file: file, rule: rule, path: field(key))
    }
}
