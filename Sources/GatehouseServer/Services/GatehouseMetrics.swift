import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import Prometheus

/// Prometheus metrics of one app instance (its own registry, so tests can run several apps).
public final class GatehouseMetrics: AuthEventObserver {
    public let registry = PrometheusCollectorRegistry()
    private let counters = LockedBox<[String: Counter]>([:])
    private let histograms = LockedBox<[String: DurationHistogram]>([:])
    private let signIns = LockedBox<[String: Counter]>([:])

    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]

    public init() {}

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let key = "\(method) \(route) \(status)"
        let counter = counters.withLock { cache in
            if let counter = cache[key] { return counter }
            let counter = registry.makeCounter(
                name: "gatehouse_http_requests_total",
                labels: [("method", method), ("route", route), ("status", String(status))]
            )
            cache[key] = counter
            return counter
        }
        counter.increment()
        let histogramKey = "\(method) \(route)"
        let histogram = histograms.withLock { cache in
            if let histogram = cache[histogramKey] { return histogram }
            let histogram = registry.makeDurationHistogram(
                name: "gatehouse_http_request_duration_seconds",
                labels: [("method", method), ("route", route)],
                buckets: Self.buckets
            )
            cache[histogramKey] = histogram
            return histogram
        }
        histogram.record(duration)
    }

    public func signInAttempt(method: String, outcome: String) {
        let key = "\(method) \(outcome)"
        signIns.withLock { cache in
            if let counter = cache[key] { return counter }
            let counter = registry.makeCounter(name: "gatehouse_signin_total", labels: [("method", method), ("outcome", outcome)])
            cache[key] = counter
            return counter
        }.increment()
    }

    public func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}

extension GatehouseMetrics: DeliveryObserver {
    public func queueDepth(queued: Int, dead: Int) {
        registry.makeGauge(name: "gatehouse_mail_queue_depth", labels: [("state", "queued")]).set(Double(queued))
        registry.makeGauge(name: "gatehouse_mail_queue_depth", labels: [("state", "dead")]).set(Double(dead))
    }

    public func delivered(kind: String) { mailCounter("gatehouse_mail_sent_total", kind: kind).increment() }
    public func retried(kind: String) { mailCounter("gatehouse_mail_retried_total", kind: kind).increment() }
    public func deadLettered(kind: String) { mailCounter("gatehouse_mail_dead_total", kind: kind).increment() }

    private func mailCounter(_ name: String, kind: String) -> Counter {
        registry.makeCounter(name: name, labels: [("kind", kind)])
    }
}
