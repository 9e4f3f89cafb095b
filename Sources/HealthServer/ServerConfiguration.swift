import Foundation

/// How the HTTP server runs: address, limits and the optional bearer token.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Analyses running at once; more wait in the queue.
    public var maxInFlight: Int
    /// Requests allowed to wait; beyond that the answer is 503 with Retry-After.
    public var maxQueue: Int
    /// Largest accepted request body.
    public var maxBodyBytes: Int
    /// Per-request time limit.
    public var requestTimeout: Duration
    /// When set, every /v1 request needs `Authorization: Bearer <token>`; when nil, only loopback clients are served.
    public var apiToken: String?
    /// Queue depth at which Complete is replaced by Lite, and Lite by keyword-only.
    public var degradeToLiteAt: Int
    public var degradeToKeywordAt: Int

    /// Defaults: 16 analyses in flight (their embeddings share micro-batches, so holding many is
    /// cheap), 256 waiting; Complete steps down to Lite at 32 queued and Lite to keyword-only at 128.
    public init(host: String = "127.0.0.1", port: Int = 8080, maxInFlight: Int = 16, maxQueue: Int = 256, maxBodyBytes: Int = 64 * 1024,
                requestTimeout: Duration = .seconds(10), apiToken: String? = ProcessInfo.processInfo.environment["HEALTH_API_TOKEN"],
                degradeToLiteAt: Int = 32, degradeToKeywordAt: Int = 128) {
        self.host = host; self.port = port; self.maxInFlight = maxInFlight; self.maxQueue = maxQueue
        self.maxBodyBytes = maxBodyBytes; self.requestTimeout = requestTimeout
        self.apiToken = (apiToken?.isEmpty ?? true) ? nil : apiToken
        self.degradeToLiteAt = degradeToLiteAt; self.degradeToKeywordAt = degradeToKeywordAt
    }
}
