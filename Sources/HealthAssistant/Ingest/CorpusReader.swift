import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    ///
    /// Symbolic links are followed, the root included: a corpus is often a link to a shared
    /// library, and a walk that stays on the link itself finds nothing, which made an index run
    /// remove every document of the folder. Paths are built from `folder` as given, never from the
    /// link targets, so the stored paths are the same whether or not a link is on the way.
    /// `warn` hears of linked folders skipped because the walk has already been there (a link to
    /// an ancestor would loop; a link to a folder inside the corpus would index it twice).
    public func list(_ folder: URL, warn: (String) -> Void = { _ in }) throws -> [SourceFile] {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir) else { throw ReadError.missingFolder(folder.path) }
        guard isDir.boolValue else { throw ReadError.notAFolder(folder.path) }
        var walk = FolderWalk()
        walk.enter(folder)
        // Linked folders wait until every real folder has been walked, so a link pointing inside
        // the corpus is recognised as a second route and the files keep their real paths.
        while !walk.deferredLinks.isEmpty {
            let link = walk.deferredLinks.removeFirst()
            if !walk.enter(link) {
                warn("skipped \(Self.displayPath(link))/: it links to a folder already indexed (\(Self.displayPath(link.resolvingSymlinksInPath())))")
            }
        }
        return walk.files.map { SourceFile(path: Self.displayPath($0), url: $0) }.sorted { $0.path < $1.path }
    }

    /// A depth-first walk that follows links and remembers each folder by device and inode, the
    /// one identity that is the same by every route (a path is not, through links).
    struct FolderWalk {
        var files: [URL] = []
        var deferredLinks: [URL] = []
        var visited: Set<FolderID> = []

        struct FolderID: Hashable { var device: UInt64; var inode: UInt64 }

        /// Walks `dir` unless it was walked already; false when it was.
        @discardableResult
        mutating func enter(_ dir: URL) -> Bool {
            guard let id = Self.identity(dir.path), visited.insert(id).inserted else { return false }
            // An unreadable folder lists as empty rather than stopping the run, like an unreadable file.
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
            var links: [URL] = []
            for name in names where !name.hasPrefix(".") {
                let url = dir.appendingPathComponent(name)
                var isDir: ObjCBool = false
                // fileExists follows links; a broken link reads as a file, and is listed if its name
                // says text, so the read reports it by name instead of it vanishing silently.
                let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir)
                if exists && isDir.boolValue {
                    if Self.isLink(url.path) { links.append(url) } else { enter(url) }
                } else if CorpusReader.extensions.contains(url.pathExtension.lowercased()) {
                    files.append(url)
                }
            }
            deferredLinks.append(contentsOf: links)
            return true
        }

        static func identity(_ path: String) -> FolderID? {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            return FolderID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        }

        static func isLink(_ path: String) -> Bool {
            var st = stat()
            return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
        }
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
        if !FileManager.default.fileExists(atPath: file.url.path),
           let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file.url.path) {
            return .failure(FileProblem(path: file.path, reason: "a symbolic link to \(target), which does not exist; fix or remove the link"))
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
