import Foundation
import TestSupport
import HealthAssistant
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import HealthServer

/// Every route against the real server on loopback (HummingbirdTesting's `.live` mode starts it
/// on a free port), with the real model and the shipped corpus in a temporary index.
@Suite(.serialized)
struct HealthServerTests {

    static let assistant: HealthAssistant = {
        let db = TestTemp.root.appendingPathComponent("server-\(UUID().uuidString).sqlite").path
        return HealthAssistant(configuration: .init(projectDirectory: packageRoot, databasePath: db, autoFetch: false))
    }()

    func server(_ config: ServerConfiguration = ServerConfiguration(port: 0, apiToken: nil)) async throws -> HealthServer {
        try await Self.assistant.warmUp()
        return HealthServer(assistant: Self.assistant, configuration: config)
    }

    static func body(_ s: String) -> ByteBuffer { ByteBuffer(string: s) }
    static func json(_ b: ByteBuffer) -> [String: Any]? { try? JSONSerialization.jsonObject(with: Data(buffer: b)) as? [String: Any] }

    @Test func probesMetricsAndOpenAPI() async throws {
        try await server().application().test(.live) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { r in
                #expect(r.status == .ok)
                #expect(Self.json(r.body)?["status"] as? String == "ready")
            }
            try await client.execute(uri: "/openapi.yaml", method: .get) { r in
                #expect(String(buffer: r.body).contains("openapi: 3"))
                #expect(String(buffer: r.body).contains("/v1/ask/stream"))
            }
            try await client.execute(uri: "/metrics", method: .get) { r in
                let text = String(buffer: r.body)
                #expect(text.contains("health_http_requests_total{route=\"/healthz\",status=\"200\"}"))
                #expect(text.contains("health_model_cache_loads"))
            }
        }
    }

    @Test func askReturnsTheSchemaV2Answer() async throws {
        try await server().application().test(.live) { client in
            try await client.execute(uri: "/v1/ask", method: .post, headers: [.contentType: "application/json"],
                                     body: Self.body(#"{"question": "sore throat and runny nose for two days", "model": "lite"}"#)) { r in
                #expect(r.status == .ok)
                let a = try #require(Self.json(r.body))
                #expect(a["schema"] as? Int == 2)
                #expect(a["understood"] as? Bool == true)
                #expect(((a["triage"] as? [String: Any])?["decidedBy"] as? [Any]) != nil)
                #expect((a["triage"] as? [String: Any])?["level"] != nil)
                #expect((a["citations"] as? [Any])?.isEmpty == false)
                #expect((a["model"] as? [String: Any])?["name"] as? String == "lite")
                #expect((a["notice"] as? String)?.contains("Not a diagnosis") == true)
            }
            try await client.execute(uri: "/v1/ask", method: .post, body: Self.body(#"{"question": "I want to end my life"}"#)) { r in
                let a = try #require(Self.json(r.body))
                #expect((a["triage"] as? [String: Any])?["level"] as? String == "emergency")
                #expect((a["crisis"] as? [String])?.joined().contains("988") == true)
            }
        }
    }

    @Test func badRequestsGetJSONErrorsWithTheRightStatus() async throws {
        try await server().application().test(.live) { client in
            for (body, status) in [("{not json", HTTPResponse.Status.badRequest), (#"{"q": "x"}"#, .badRequest), (#"{"question": 42}"#, .badRequest),
                                   (#"{"question": "cough", "model": "huge"}"#, .badRequest), (#"{"question": "   "}"#, .badRequest)] {
                try await client.execute(uri: "/v1/ask", method: .post, body: Self.body(body)) { r in
                    #expect(r.status == status, "\(body)")
                    #expect((Self.json(r.body)?["error"] as? [String: Any])?["message"] != nil, "\(body) → \(String(buffer: r.body))")
                }
            }
            let huge = #"{"question": ""# + String(repeating: "a", count: 70_000) + #""}"#
            try await client.execute(uri: "/v1/ask", method: .post, body: Self.body(huge)) { #expect($0.status == .contentTooLarge) }
            try await client.execute(uri: "/v1/nope", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/ask", method: .get) { #expect($0.status == .notFound || $0.status == .methodNotAllowed) }
            try await client.execute(uri: "/v1/search", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/conditions/no-such-thing", method: .get) { r in
                #expect(r.status == .notFound)
                #expect(String(buffer: r.body).contains("no-such-thing"))
            }
            // Still serving after all that.
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func searchAndConditions() async throws {
        try await server().application().test(.live) { client in
            try await client.execute(uri: "/v1/search?q=stiff%20neck%20fever&limit=3", method: .get) { r in
                #expect(r.status == .ok)
                let hits = try JSONSerialization.jsonObject(with: Data(buffer: r.body)) as? [[String: Any]]
                #expect(hits?.count == 3)
                #expect(hits?.first?["path"] as? String != nil)
            }
            try await client.execute(uri: "/v1/conditions/common-cold", method: .get) { r in
                #expect(r.status == .ok)
                #expect(Self.json(r.body)?["name"] as? String == "Common cold")
            }
        }
    }

    @Test func streamSendsTriageFirstAndDoneLast() async throws {
        try await server().application().test(.live) { client in
            try await client.execute(uri: "/v1/ask/stream", method: .post, body: Self.body(#"{"question": "fever and cough for 3 days"}"#)) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/event-stream")
                let events = String(buffer: r.body).components(separatedBy: "\n").filter { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
                #expect(events.first == "triage")
                #expect(events.last == "done")
                #expect(events.contains("condition") && events.contains("citations"))
            }
        }
    }

    @Test func bearerTokenIsRequiredWhenConfigured() async throws {
        try await server(ServerConfiguration(port: 0, apiToken: "s3cret")).application().test(.live) { client in
            try await client.execute(uri: "/v1/conditions/common-cold", method: .get) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/conditions/common-cold", method: .get, headers: [.authorization: "Bearer wrong"]) { #expect($0.status == .unauthorized) }
            try await client.execute(uri: "/v1/conditions/common-cold", method: .get, headers: [.authorization: "Bearer s3cret"]) { #expect($0.status == .ok) }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func fullQueueAnswers503WithRetryAfter() async throws {
        let s = try await server(ServerConfiguration(port: 0, maxInFlight: 1, maxQueue: 0, apiToken: nil))
        // Occupy the only analysis slot, as a slow request would.
        #expect(await s.admission.enter().admitted)
        try await s.application().test(.live) { client in
            try await client.execute(uri: "/v1/ask", method: .post, body: Self.body(#"{"question": "headache"}"#)) { r in
                #expect(r.status == .serviceUnavailable)
                #expect(r.headers[.retryAfter] == "1")
                #expect((Self.json(r.body)?["error"] as? [String: Any])?["message"] != nil)
            }
            await s.admission.leave()
            try await client.execute(uri: "/v1/ask", method: .post, body: Self.body(#"{"question": "headache"}"#)) { #expect($0.status == .ok) }
        }
    }

    @Test func admissionQueuesThenRefuses() async {
        let a = AdmissionControl(maxInFlight: 1, maxQueue: 1)
        #expect(await a.enter().admitted)
        let waiter = Task { await a.enter().admitted }
        try? await Task.sleep(nanoseconds: 50_000_000)
        #expect(await a.queueDepth == 1)
        #expect(await a.enter().admitted == false)   // queue full
        await a.leave()                                // hands the slot to the waiter
        #expect(await waiter.value)
        await a.leave()
        #expect(await a.inFlight == 0)
    }

    @Test func pressureStepsDownTheModel() async throws {
        let s = try await server(ServerConfiguration(port: 0, degradeToLiteAt: 2, degradeToKeywordAt: 5))
        let ask = HealthServer.AskRequest(question: "x", model: "complete")
        #expect(s.options(for: ask, depth: 0).options.model == .complete)
        #expect(s.options(for: ask, depth: 3).options.model == .lite)
        #expect(s.options(for: ask, depth: 6).options.keywordOnly)
        #expect(s.options(for: ask, depth: 6).note?.contains("bm25") == true)
    }

    @Test func slowClientsAndMidStreamDisconnectsDoNotHurtTheServer() async throws {
        try await server().application().test(.live) { client in
            let port = try #require(client.port)
            // A client that dribbles its request out in small pieces still gets its answer.
            let body = #"{"question": "sore throat and runny nose", "model": "lite"}"#
            let request = RawSocket.request("POST", "/v1/ask", body: body)
            let slow = try RawSocket(port: port)
            var rest = Substring(request)
            while !rest.isEmpty {
                slow.send(String(rest.prefix(7)))
                rest = rest.dropFirst(7)
                try await Task.sleep(for: .milliseconds(15))
            }
            let reply = await slow.readOffPool()
            slow.close()
            #expect(reply.hasPrefix("HTTP/1.1 200"))
            #expect(reply.contains("\"schema\":2"))

            // Clients that send half a request and vanish, and clients that hang up in the middle
            // of a stream: the server carries on.
            for _ in 0..<5 {
                let half = try RawSocket(port: port)
                half.send(String(request.prefix(40)))
                half.close()
                let streaming = try RawSocket(port: port)
                streaming.send(RawSocket.request("POST", "/v1/ask/stream", body: #"{"question": "fever and cough for two days"}"#))
                _ = await streaming.readOffPool(until: "event: triage")
                streaming.close()
            }
            // Still serving, and the in-flight gauge went back to zero (no leaked admission slots).
            try await client.execute(uri: "/v1/ask", method: .post, headers: [.contentType: "application/json"], body: Self.body(body)) { r in
                #expect(r.status == .ok)
            }
            var inFlight = -1.0
            for _ in 0..<50 {
                try await client.execute(uri: "/metrics", method: .get) { r in
                    let line = String(buffer: r.body).split(separator: "\n").first { $0.hasPrefix("health_in_flight ") }
                    inFlight = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
                }
                if inFlight == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(inFlight == 0)
        }
    }

    @Test func concurrentQuestionsShareEmbeddingBatches() async throws {
        let before = await Self.assistant.batcher.counters
        try await server().application().test(.live) { client in
            // 24 clients on 24 connections at once (the test client itself is one connection).
            let port = try #require(client.port)
            let replies = await withTaskGroup(of: String.self) { group in
                for i in 0..<24 {
                    group.addTask {
                        await RawSocket.exchange(port: port, RawSocket.request("POST", "/v1/ask", body: #"{"question": "headache and tired \#(i)", "model": "lite"}"#))
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.count == 24)
            #expect(replies.allSatisfy { $0.hasPrefix("HTTP/1.1 200") })
        }
        let after = await Self.assistant.batcher.counters
        #expect(after.requests - before.requests >= 24)
        // Fewer forward passes than questions: concurrent ones were batched together.
        #expect(after.batches - before.batches < after.requests - before.requests)
        #expect(after.largestBatch > 1)
    }
}
