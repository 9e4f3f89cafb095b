import ArgumentParser
import Foundation

/// Turns a typed error into one stderr line and a non-zero exit, instead of a stack trace.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

func failing<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ValidationError { throw error } catch let error as CleanExit { throw error }
    catch let error as ExitCode { throw error } catch {
        FileHandle.standardError.write(Data("health: error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

/// `failing` for async bodies.
func failingAsync<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as ValidationError { throw error } catch let error as CleanExit { throw error }
    catch let error as ExitCode { throw error } catch {
        FileHandle.standardError.write(Data("health: error: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

func printErr(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
