/// Everything that can go wrong between a model folder and a vector, each case naming the
/// file involved and, where there is one, the fix.
public enum EmbeddingError: Error, CustomStringConvertible, Equatable {
    case modelMissing(directory: String, file: String)
    case checksumMismatch(file: String, expected: String, actual: String)
    case invalidSafeTensors(file: String, reason: String)
    case missingTensor(file: String, name: String)
    case unexpectedTensor(file: String, name: String)
    case tensorShape(file: String, name: String, expected: [Int], actual: [Int])
    case invalidConfig(file: String, reason: String)
    case invalidVocabulary(file: String, reason: String)
    case invalidUTF8(source: String)
    case io(file: String, reason: String)

    public var description: String {
        switch self {
        case let .modelMissing(directory, file):
            return "model file \(directory)/\(file) is missing. Fix: run `health models fetch`."
        case let .checksumMismatch(file, expected, actual):
            return "model file \(file) is corrupt (sha256 \(actual), expected \(expected)). Fix: run `health models fetch` to download it again."
        case let .invalidSafeTensors(file, reason):
            return "\(file) is not a valid safetensors file: \(reason). Fix: run `health models fetch`."
        case let .missingTensor(file, name):
            return "\(file) lacks tensor '\(name)' that the BERT encoder needs. Fix: run `health models fetch`."
        case let .unexpectedTensor(file, name):
            return "\(file) has tensor '\(name)' that this BERT encoder does not know; refusing a model of another architecture."
        case let .tensorShape(file, name, expected, actual):
            return "\(file): tensor '\(name)' has shape \(actual), expected \(expected)."
        case let .invalidConfig(file, reason):
            return "\(file) is not a usable model config: \(reason). Fix: run `health models fetch`."
        case let .invalidVocabulary(file, reason):
            return "\(file) is not a usable WordPiece vocabulary: \(reason). Fix: run `health models fetch`."
        case let .invalidUTF8(source):
            return "\(source) is not valid UTF-8 text. Fix: convert it to UTF-8 (e.g. `iconv -t UTF-8`)."
        case let .io(file, reason):
            return "cannot read \(file): \(reason)"
        }
    }
}
