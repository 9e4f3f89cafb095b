import Foundation
import HealthAssistant

/// Request counts and latency histograms by route, status and model, in Prometheus text format.
actor ServerMetrics {
    static let buckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Key: Hashable { var route: String; var model: String }
    struct Histogram { var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count); var sum = 0.0; var count = 0 }

    private var requests: [String: Int] = [:]
    private var latency: [Key: Histogram] = [:]
    private var rejected = 0

    func record(route: String, status: Int, model: String, seconds: Double) {
        requests["route=\"\(route)\",status=\"\(status)\""] = (requests["route=\"\(route)\",status=\"\(status)\""] ?? 0) + 1
        var h = latency[Key(route: route, model: model)] ?? Histogram()
        for (i, b) in Self.buckets.enumerated() where seconds <= b { h.counts[i] += 1 }
        h.sum += seconds
        h.count += 1
        latency[Key(route: route, model: model)] = h
    }

    func recordRejected() { rejected += 1 }

    private var degraded: [String: Int] = [:]
    /// An answer stepped down under pressure, to `level` ("lite" or "bm25-only").
    func recordDegraded(to level: String) { degraded[level, default: 0] += 1 }

    func render(cache: [String: Double], batching: EmbeddingBatcher.Counters, queueDepth: Int, inFlight: Int) -> String {
        var out = "# HELP health_http_requests_total HTTP requests by route and status.\n# TYPE health_http_requests_total counter\n"
        for (labels, n) in requests.sorted(by: { $0.key < $1.key }) { out += "health_http_requests_total{\(labels)} \(n)\n" }
        out += "# HELP health_http_request_duration_seconds Request latency by route and model.\n# TYPE health_http_request_duration_seconds histogram\n"
        for (key, h) in latency.sorted(by: { ($0.key.route, $0.key.model) < ($1.key.route, $1.key.model) }) {
            let labels = "route=\"\(key.route)\",model=\"\(key.model)\""
            for (i, b) in Self.buckets.enumerated() { out += "health_http_request_duration_seconds_bucket{\(labels),le=\"\(b)\"} \(h.counts[i])\n" }
            out += "health_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(h.count)\n"
            out += "health_http_request_duration_seconds_sum{\(labels)} \(h.sum)\nhealth_http_request_duration_seconds_count{\(labels)} \(h.count)\n"
        }
        out += "# TYPE health_http_rejected_total counter\nhealth_http_rejected_total \(rejected)\n"
        out += "# TYPE health_queue_depth gauge\nhealth_queue_depth \(queueDepth)\n# TYPE health_in_flight gauge\nhealth_in_flight \(inFlight)\n"
        for (name, value) in cache.sorted(by: { $0.key < $1.key }) { out += "# TYPE health_model_cache_\(name) gauge\nhealth_model_cache_\(name) \(value)\n" }
        out += "# HELP health_degraded_total Answers stepped down under pressure, by the level they fell to.\n# TYPE health_degraded_total counter\n"
        for level in ["lite", "bm25-only"] { out += "health_degraded_total{to=\"\(level)\"} \(degraded[level] ?? 0)\n" }
        out += "# HELP health_embedding_batches_total Forward passes of the embedding model (micro-batches).\n# TYPE health_embedding_batches_total counter\n"
        out += "health_embedding_batches_total \(batching.batches)\nhealth_embedding_requests_total \(batching.requests)\n"
        out += "health_embedding_texts_total \(batching.texts)\nhealth_embedding_largest_batch \(batching.largestBatch)\n"
        return out
    }
}
