import Foundation
import HealthAssistant
import HTTPTypes
import Hummingbird
import NIOCore

/// The HTTP API over `HealthAssistant`: ask (JSON and server-sent events), search, conditions,
/// health/readiness probes, Prometheus metrics and the OpenAPI document.
public struct HealthServer: Sendable {
    public let assistant: HealthAssistant
    public let configuration: ServerConfiguration
    let admission: AdmissionControl
    let metrics = ServerMetrics()

    public init(assistant: HealthAssistant, configuration: ServerConfiguration) {
        self.assistant = assistant
        self.configuration = configuration
        admission = AdmissionControl(maxInFlight: configuration.maxInFlight, maxQueue: configuration.maxQueue)
    }

    struct AskRequest: Decodable { var question: String; var model: String? }

    /// The application, ready to run (`try await app.runService()`) or to test.
    public func application() -> some ApplicationProtocol {
        let router = Router(context: ServerContext.self)
        router.add(middleware: AccessMiddleware(token: configuration.apiToken))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.get("/healthz") { _, _ in Self.json(["status": "ok"]) }
        router.get("/readyz") { _, _ in
            let resident = await assistant.cache.residentNames
            let ready = resident.contains("embedder") && resident.contains("index")
            return Self.json(["status": ready ? "ready" : "warming", "models": resident.joined(separator: ",")], status: ready ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            let c = await assistant.metrics
            let cache: [String: Double] = ["hits": Double(c.hits), "misses": Double(c.misses), "loads": Double(c.loads), "evictions": Double(c.evictions),
                                           "resident_bytes": Double(c.residentBytes), "load_seconds": c.loadSeconds]
            let text = await metrics.render(cache: cache, batching: await assistant.batcher.counters, queueDepth: await admission.queueDepth,
                                            inFlight: await admission.inFlight)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("/openapi.yaml") { _, _ in
            let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml")
            let text = url.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
            return Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.post("/v1/ask") { request, context in
            let ask = try await Self.decodeAsk(request, context: context, limit: configuration.maxBodyBytes)
            return try await admitted { depth in
                let options = options(for: ask, depth: depth)
                var a = try await withTimeout { try await assistant.ask(ask.question, options: options.options) }
                if let note = options.note { a.degraded = note }
                await recordDegradation(options)
                return Response(status: .ok, headers: [.contentType: "application/json", HTTPField.Name("X-Health-Model")!: a.model.name],
                                body: .init(byteBuffer: ByteBuffer(string: a.json())))
            }
        }
        router.post("/v1/ask/stream") { request, context in
            let ask = try await Self.decodeAsk(request, context: context, limit: configuration.maxBodyBytes)
            guard !ask.question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw HTTPError(.badRequest, message: "question is empty")
            }
            let depth = try await admit()
            let planned = options(for: ask, depth: depth)
            await recordDegradation(planned)
            let stream = assistant.askStream(ask.question, options: planned.options)
            let admission = self.admission
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: ResponseBody { writer in
                defer { Task { await admission.leave() } }
                do {
                    for try await event in stream {
                        // The closing answer says when the server stepped down, as /v1/ask does.
                        var event = event
                        if case .done(var answer) = event, let note = planned.note { answer.degraded = note; event = .done(answer) }
                        try await writer.write(ByteBuffer(string: "event: \(event.name)\ndata: \(Self.eventJSON(event))\n\n"))
                    }
                } catch {
                    try await writer.write(ByteBuffer(string: "event: error\ndata: \(Self.errorJSON("\(error)"))\n\n"))
                }
                try await writer.finish(nil)
            })
        }
        router.get("/v1/search") { request, _ in
            guard let q = request.uri.queryParameters["q"].map(String.init), !q.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw HTTPError(.badRequest, message: "query parameter q is required")
            }
            let limit = request.uri.queryParameters["limit"].flatMap { Int(String($0)) } ?? 10
            guard (1...100).contains(limit) else { throw HTTPError(.badRequest, message: "limit must be between 1 and 100") }
            return try await admitted { _ in
                let hits = try await withTimeout { try await assistant.search(q, limit: limit) }
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(hits))))
            }
        }
        router.get("/v1/conditions/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let profile = try await assistant.condition(id: id) else {
                throw HTTPError(.notFound, message: "no condition with id '\(id)'")
            }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(profile))))
        }
        return Application(router: router, configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "health"))
    }

    // MARK: helpers

    static func decodeAsk(_ request: Request, context: ServerContext, limit: Int) async throws -> AskRequest {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: "request body is larger than \(limit) bytes")
        }
        let ask: AskRequest
        do { ask = try JSONDecoder().decode(AskRequest.self, from: Data(buffer: body)) } catch {
            throw HTTPError(.badRequest, message: "expected JSON {\"question\": string, \"model\"?: \"auto\"|\"lite\"|\"complete\"}")
        }
        if let m = ask.model, ModelSelector.Request(rawValue: m) == nil {
            throw HTTPError(.badRequest, message: "model must be auto, lite or complete")
        }
        return ask
    }

    struct PlannedOptions { var options: HealthAssistant.AskOptions; var note: String? }

    /// Steps down under pressure: Complete → Lite at `degradeToLiteAt` queued, BM25-only at `degradeToKeywordAt`.
    func options(for ask: AskRequest, depth: Int) -> PlannedOptions {
        let requested = ModelSelector.Request(rawValue: ask.model ?? "auto") ?? .auto
        if depth >= configuration.degradeToKeywordAt {
            return .init(options: .init(model: .lite, keywordOnly: true), note: "bm25-only: server under pressure (queue depth \(depth))")
        }
        if depth >= configuration.degradeToLiteAt {
            return .init(options: .init(model: .lite), note: requested == .lite ? nil : "lite: server under pressure (queue depth \(depth))")
        }
        return .init(options: .init(model: requested), note: nil)
    }

    /// Takes an analysis slot (or a place in the queue) and returns the queue depth it saw; a full
    /// queue is counted and answered 503. The caller must `admission.leave()` afterwards.
    func admit() async throws -> Int {
        let (ok, depth) = await admission.enter()
        guard ok else {
            await metrics.recordRejected()
            throw Self.busy()
        }
        return depth
    }

    /// Counts an answer the server stepped down, by what it stepped down to.
    func recordDegradation(_ planned: PlannedOptions) async {
        guard planned.note != nil else { return }
        await metrics.recordDegraded(to: planned.options.keywordOnly ? "bm25-only" : "lite")
    }

    func admitted(_ body: (Int) async throws -> Response) async throws -> Response {
        let depth = try await admit()
        do {
            let r = try await body(depth)
            await admission.leave()
            return r
        } catch {
            await admission.leave()
            throw Self.httpError(error)
        }
    }

    func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let limit = configuration.requestTimeout
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask { try await Task.sleep(for: limit); return nil }
            guard let first = try await group.next(), let value = first else {
                group.cancelAll()
                throw HTTPError(.gatewayTimeout, message: "the request took longer than \(limit)")
            }
            group.cancelAll()
            return value
        }
    }

    static func busy() -> HTTPError {
        HTTPError(.serviceUnavailable, headers: [.retryAfter: "1"], message: "server busy: too many requests queued; retry shortly")
    }

    static func httpError(_ error: Error) -> Error {
        if error is HTTPError { return error }
        if let e = error as? HealthAssistant.AskError {
            switch e {
            case .emptyQuestion, .tooLong: return HTTPError(.badRequest, message: "\(e)")
            case .emptyIndex: return HTTPError(.serviceUnavailable, message: "\(e)")
            }
        }
        // Rule data that does not validate: the server cannot triage safely, so it says why.
        if error is KnowledgeError { return HTTPError(.serviceUnavailable, message: "\(error)") }
        return HTTPError(.internalServerError, message: "\(error)")
    }

    static func json(_ object: [String: String], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    static func errorJSON(_ message: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: ["error": ["message": message]])) ?? Data(), as: UTF8.self)
    }

    static func eventJSON(_ event: AnswerEvent) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch event {
        case .triage(let t): data = try? encoder.encode(t)
        case .condition(let c): data = try? encoder.encode(c)
        case .redFlags(let f): data = try? encoder.encode(f)
        case .advice(let a): data = try? encoder.encode(a)
        case .citations(let c): data = try? encoder.encode(c)
        case .done(let a): data = try? encoder.encode(a)
        }
        return String(decoding: data ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// Bearer token when configured; otherwise only loopback clients may use the API.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let token: String?

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let open = path == "/healthz" || path == "/readyz"
        if let token {
            if !open, request.headers[.authorization] != "Bearer \(token)" {
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "missing or wrong bearer token")
            }
        } else if let address = context.remoteAddress, !Self.isLoopback(address) {
            throw HTTPError(.forbidden, message: "only loopback clients are served without HEALTH_API_TOKEN")
        }
        return try await next(request, context)
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return true }  // unix sockets are local
        return ip == "127.0.0.1" || ip == "::1" || ip.hasPrefix("127.") || ip == "::ffff:127.0.0.1"
    }
}

/// Counts and times every request by route (the matched pattern, not the raw path) and status.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func seconds() -> Double { let d = ContinuousClock.now - start; return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        do {
            let response = try await next(request, context)
            let route = context.endpointPath ?? "unmatched"
            await metrics.record(route: route, status: Int(response.status.code), model: response.headers[HTTPField.Name("X-Health-Model")!] ?? "-", seconds: seconds())
            return response
        } catch {
            let status = (error as? HTTPError)?.status.code ?? 500
            await metrics.record(route: context.endpointPath ?? "unmatched", status: Int(status), model: "-", seconds: seconds())
            throw error
        }
    }
}
