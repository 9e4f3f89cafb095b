import Hummingbird
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address, which the
/// loopback-only rule needs when no API token is configured.
public struct ServerContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Requests larger than this are refused with 413 before they are read.
    public var maxUploadSize: Int { 64 * 1024 }
}
