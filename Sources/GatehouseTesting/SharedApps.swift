import Foundation
import GatehouseInfrastructure

/// The apps one suite shares, as supabase/auth's API tests share one API per suite: one app per
/// database, started on the suite's first test and kept for the rest of the process, and reset to an
/// empty store before each test. A test has its app to itself: another test of the suite that wants
/// the same app waits for it, so tests never see each other's rows, and no test depends on the order
/// they run in. Suites run in parallel, each on its own apps.
///
/// A suite keeps fresh apps (one per test) where a fresh app is the point: start-up, restart,
/// migrations, configuration that differs from test to test.
public final class SharedApps<App: Sendable>: Sendable {
    private let start: @Sendable (TestDatabase) async throws -> App
    private let reset: @Sendable (App) async throws -> Void
    private let started = LockedBox<[TestDatabase: Task<App, any Error>]>([:])
    private let turns: [TestDatabase: AsyncSemaphore]

    /// Apps made by `start` on first use, with `reset` before each test.
    /// - Parameters:
    ///   - start: Builds and starts the app on a database; it runs once per database.
    ///   - reset: Empties what a test may have left (the store's rows, captured mail, the clock).
    public init(
        start: @escaping @Sendable (TestDatabase) async throws -> App,
        reset: @escaping @Sendable (App) async throws -> Void
    ) {
        self.start = start
        self.reset = reset
        turns = Dictionary(uniqueKeysWithValues: TestDatabase.allCases.map { ($0, AsyncSemaphore(count: 1)) })
    }

    /// Runs `body` with the suite's app on `database`, reset first, and no other test on it meanwhile.
    /// - Parameters:
    ///   - database: The store the app runs on.
    ///   - body: The test.
    /// - Returns: What `body` returns.
    /// - Throws: The app's start-up error, the reset's, or `body`'s.
    public func with<T: Sendable>(_ database: TestDatabase = .sqlite, _ body: (App) async throws -> T) async throws -> T {
        let turn = turns[database]!
        await turn.acquire()
        defer { turn.release() }
        let app = try await self.app(database)
        try await reset(app)
        return try await body(app)
    }

    /// The reset a shared app's `reset` does: working transports, the store emptied by `emptyStore`
    /// (the app's `resetForTests()`), no captured mail or texts, and the clock back at `start`.
    /// - Parameters:
    ///   - mailer: The app's captured mail.
    ///   - texts: The app's captured texts.
    ///   - clock: The app's clock.
    ///   - start: The clock's time when the app was made.
    ///   - emptyStore: Empties the app's store and caches.
    /// - Throws: What `emptyStore` throws.
    public static func resetCaptures(
        mailer: CapturingMailer,
        texts: CapturingSMS,
        clock: TestClock,
        to start: Date,
        emptyingStore emptyStore: () async throws -> Void
    ) async throws {
        mailer.setFailure(nil)
        texts.setFailure(nil)
        try await emptyStore()
        mailer.clear()
        texts.clear()
        clock.set(start)
    }

    private func app(_ database: TestDatabase) async throws -> App {
        let task = started.withLock { started in
            if let task = started[database] { return task }
            let start = self.start
            let task = Task { try await start(database) }
            started[database] = task
            return task
        }
        return try await task.value
    }
}

/// Keeps a started app running for the rest of the process: `run` is the test framework's call that
/// serves the app while its body runs (HummingbirdTesting's `app.test(.router) { … }`); the body hands
/// its client out and then waits forever, so the app and its services stay up for the tests that
/// share it.
public enum KeptRunning {
    /// Starts `run` in a task of its own and returns the client its body receives once the app is up.
    /// - Parameter run: Serves the app while the body it is given runs.
    /// - Returns: The body's argument (the test client).
    /// - Throws: What `run` throws before the app is up (start-up failed).
    public static func start<Client: Sendable>(
        _ run: @escaping @Sendable (@escaping @Sendable (Client) async throws -> Void) async throws -> Void
    ) async throws -> Client {
        let (handed, handOut) = AsyncStream.makeStream(of: Result<Client, any Error>.self, bufferingPolicy: .bufferingNewest(1))
        Task {
            do {
                try await run { client in
                    handOut.yield(.success(client))
                    while true { try await Task.sleep(for: .seconds(3600)) }
                }
            } catch {
                handOut.yield(.failure(error))
            }
            handOut.finish()
        }
        for await result in handed { return try result.get() }
        throw CancellationError()
    }
}
