import ServiceLifecycle

/// A service that uses what start-up makes ready (the open store, the keys): it waits for the
/// ``StartUpGate`` and then runs. When start-up fails, or graceful shutdown comes first, it returns
/// without running.
struct AfterStartUp: Service {
    let service: any Service
    let gate: StartUpGate

    func run() async throws {
        let gate = self.gate
        let started = await cancelWhenGracefulShutdown { await gate.wait() }
        guard started else { return }
        try await service.run()
    }
}
