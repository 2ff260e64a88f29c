import ServiceLifecycle

/// SQLite's place in the service group: waits for the store to open its file, runs the checkpointer
/// until graceful shutdown, then closes the store (which checkpoints fully). Returns at once on
/// graceful shutdown when the store never opened.
struct SQLiteCheckpointService: Service {
    let checkpointers: AsyncStream<SQLiteCheckpointer>
    let close: @Sendable () async throws -> Void

    func run() async throws {
        let stream = checkpointers
        let checkpointer = await cancelWhenGracefulShutdown { await stream.first { _ in true } }
        guard let checkpointer else { return }
        try await checkpointer.run()
        try await close()
    }
}
