import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP client for what an HTTP client library will not do on purpose: send a request
/// byte by byte with pauses, or hang up in the middle of a response.
final class RawSocket: @unchecked Sendable {  // a file descriptor, used by one task at a time
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else { Glibc.close(fd); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `marker` has been seen or the peer closes; returns what arrived.
    func read(until marker: String? = nil) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
            if let marker, String(decoding: data, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: data, as: UTF8.self)
    }

    func close() { Glibc.close(fd) }

    /// `read(until:)` on a thread of its own, so waiting for the reply never holds a thread of the
    /// Swift concurrency pool the in-process server needs to produce it (on a 2-core machine with
    /// other suites running, a blocked pool thread starved the server into its 10 s timeout).
    func readOffPool(until marker: String? = nil) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.read(until: marker)) }
        }
    }

    static func request(_ method: String, _ path: String, body: String) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }
}

extension RawSocket {
    /// One whole request/response on its own connection; the reply is awaited off the pool
    /// (`readOffPool`), as blocking socket reads must not occupy the Swift concurrency pool the
    /// in-process server runs on.
    static func exchange(port: Int, _ request: String) async -> String {
        guard let socket = try? RawSocket(port: port) else { return "" }
        socket.send(request)
        let reply = await socket.readOffPool()
        socket.close()
        return reply
    }
}
