extension GatehouseApplication {
    /// Makes a running app answer as a new one would, for tests that share one app between tests:
    /// waits until the delivery queue is idle (no pass writes afterwards), deletes every row a request
    /// can write in one transaction (the migrations, settings and signing keys that start-up wrote
    /// stay), and forgets the cached session answers. The other caches are keyed by values a new user
    /// never shares with an old one (subjects, token bytes), so what they still hold is never asked for.
    /// - Throws: The store's error.
    package func resetForTests() async throws {
        await messageDelivery.waitUntilIdle()
        try await store.deleteRequestDataForTests()
        liveness.removeAll()
    }
}
