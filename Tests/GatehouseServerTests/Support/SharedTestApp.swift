import Foundation
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting

/// A ``TestApp`` kept running for the tests of one suite (``TestApp/shared(configure:)``), with the
/// router client its tests send requests through.
struct SharedTestApp: Sendable {
    let app: TestApp
    let client: any TestClientProtocol
    /// The clock's time when the app was made (the reset sets it back).
    let startedAt: Date

    /// Makes the app answer as a new one would: an empty store (start-up's rows stay), no captured
    /// mail or texts, working transports, and the clock back at its start.
    func reset() async throws {
        try await SharedApps<Self>.resetCaptures(mailer: app.mailer, texts: app.texts, clock: app.clock, to: startedAt) {
            try await app.built.resetForTests()
        }
    }
}

extension TestApp {
    /// One app per database for a suite's tests that need nothing of their own (the same settings,
    /// captured mail, the test clock), served through the router and reset before each test; a suite
    /// holds it in a `static let` and its tests call ``SharedApps/router(_:_:)``.
    /// - Parameter configure: The suite's settings, on top of ``make(database:logger:clock:realTime:backgroundKeyRefresh:deliverer:mail:configure:)``'s.
    static func shared(configure: @escaping @Sendable (inout GatehouseConfiguration) -> Void = { _ in }) -> SharedApps<SharedTestApp> {
        SharedApps(
            start: { database in
                let app = try await TestApp.make(database: database, configure: configure)
                TemporaryDirectories.removeAtExit(app.directory)
                let client: any TestClientProtocol = try await KeptRunning.start { body in
                    try await app.built.app.test(.router) { client in try await body(client) }
                }
                return SharedTestApp(app: app, client: client, startedAt: app.clock.now())
            },
            reset: { shared in try await shared.reset() }
        )
    }
}

extension SharedApps where App == SharedTestApp {
    /// Runs `body` with the suite's app on `database` and its router client, the app reset first and
    /// no other test on it meanwhile.
    func router<T: Sendable>(
        _ database: TestDatabase = .sqlite,
        _ body: (TestApp, any TestClientProtocol) async throws -> T
    ) async throws -> T {
        try await with(database) { shared in try await body(shared.app, shared.client) }
    }
}
