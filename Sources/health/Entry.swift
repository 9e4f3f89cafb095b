import ArgumentParser
import Foundation
import Linear

/// Process entry: rejects arguments that are not valid UTF-8 before argument parsing, which would
/// otherwise silently replace the bad bytes and embed a different text than the user typed.
@main
enum Entry {
    static func main() async {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: raw) == nil {
                FileHandle.standardError.write(Data("health: error: argument \(index) is not valid UTF-8 text. Fix: pass UTF-8 (e.g. convert with `iconv -t UTF-8`).\n".utf8))
                exit(2)
            }
        }
        // Every command runs OpenBLAS on one thread (cores are used by sharding, see `Parallel`);
        // saying so first thing stops the worker OpenBLAS started at load, which would otherwise
        // spin on the second core through most of a cold `health ask`.
        BLAS.setThreads(1)
        BLAS.stopIdleWorkers()
        await HealthCommand.main()
    }
}
