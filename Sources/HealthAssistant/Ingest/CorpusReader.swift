import Foundation

/// Finds the files of a corpus folder and reads the ones that are usable text, reporting the
/// others (unreadable, binary, huge, not UTF-8) as warnings that name the file, so one bad file
/// never stops an index run.
public struct CorpusReader: Sendable {
    public static let extensions: Set<String> = ["md", "markdown", "txt", "text"]
    public var maxBytes = 10 * 1024 * 1024

    public struct SourceFile: Sendable {
        /// Path as stored and cited: relative to the working directory when inside it.
        public var path: String
        public var url: URL
    }

    public enum ReadError: Error, CustomStringConvertible, Equatable {
        case missingFolder(String)
        case notAFolder(String)
        public var description: String {
            switch self {
            case .missingFolder(let p): return "folder \(p) does not exist. Fix: pass an existing folder, e.g. `health index corpus`."
            case .notAFolder(let p): return "\(p) is not a folder. Fix: pass the folder that holds the Markdown/text files."
            }
        }
    }

    public init() {}

    /// The text files under `folder`, sorted by path (hidden files and folders skipped).
    public func list(_ folder: URL) throws -> [SourceFile] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir) else { throw ReadError.missingFolder(folder.path) }
        guard isDir.boolValue else { throw ReadError.notAFolder(folder.path) }
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var files: [SourceFile] = []
        for case let url as URL in walker where Self.extensions.contains(url.pathExtension.lowercased()) {
            files.append(SourceFile(path: Self.displayPath(url), url: url))
        }
        return files.sorted { $0.path < $1.path }
    }

    static func displayPath(_ url: URL) -> String {
        let full = url.standardizedFileURL.path
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        return full.hasPrefix(cwd) ? String(full.dropFirst(cwd.count)) : full
    }

    /// The folder's own prefix in stored paths (to find documents deleted from it).
    public static func pathPrefix(of folder: URL) -> String {
        let p = displayPath(folder)
        return p.hasSuffix("/") ? p : p + "/"
    }

    /// Reads a file as UTF-8 text, or explains why it cannot be used.
    public func read(_ file: SourceFile) -> Result<(text: String, data: Data), FileProblem> {
        let attrs = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        if let size = (attrs?[.size] as? NSNumber)?.intValue, size > maxBytes {
            return .failure(FileProblem(path: file.path, reason: "larger than \(maxBytes / 1_048_576) MB (\(size / 1_048_576) MB); split it into smaller files"))
        }
        guard let data = FileManager.default.contents(atPath: file.url.path) else {
            return .failure(FileProblem(path: file.path, reason: "unreadable (check permissions)"))
        }
        if data.prefix(8192).contains(0) {
            return .failure(FileProblem(path: file.path, reason: "binary content (NUL bytes)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(FileProblem(path: file.path, reason: "not valid UTF-8; convert it with `iconv -t UTF-8`"))
        }
        return .success((text, data))
    }

    public struct FileProblem: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "skipped \(path): \(reason)" }
    }
}
