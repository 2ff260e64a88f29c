import ServiceLifecycle

/// Shuts the upstream client down when the service group stops.
struct UpstreamHTTPClientService: Service {
    let upstream: UpstreamHTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await upstream.shutdown()
    }
}
