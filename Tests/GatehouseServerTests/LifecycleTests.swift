import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Logging
import Testing

/// `buildApplication` does no I/O: the data directory, the master key, the database and its
/// migrations come in `beforeServerStarts`, once the service group runs; a misconfiguration stops
/// the run, not the build.
@Suite("Lifecycle", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct LifecycleTests {
    static func configuration(_ dataDirectory: URL) -> GatehouseConfiguration {
        var c = GatehouseConfiguration()
        c.dataDirectory = dataDirectory.path
        c.host = "127.0.0.1"
        c.port = 0
        c.scrypt = .init(logN: 4)
        return c
    }

    static var quiet: Logger {
        var logger = Logger(label: "gatehouse-test")
        logger.logLevel = .critical
        return logger
    }

    @Test func buildingCreatesNothingOnDiskUntilTheAppRuns() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gh-lifecycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let dataDirectory = root.appendingPathComponent("data")
        let built = try await buildApplication(configuration: Self.configuration(dataDirectory), logger: Self.quiet)
        #expect(!FileManager.default.fileExists(atPath: root.path), "building touched the disk")
        let early = await #expect(throws: GatehouseError.self, "the store opens only once the app runs") {
            try await built.store.read { _ in true }
        }
        #expect(early?.code == .unavailable)
        try await built.app.test(.router) { client in
            #expect(FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("master.key").path))
            #expect(FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("outbox").path))
            let pending = try await built.store.pendingMigrations()
            #expect(pending.isEmpty, "migrated before the first request")
            let health = try await client.send(.get, "/health")
            #expect(health.status == .ok)
        }
    }

    @Test func pendingMigrationsWithAutoMigrateOffStopTheRunNotTheBuild() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gh-lifecycle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var c = Self.configuration(root)
        c.autoMigrate = false
        let built = try await buildApplication(configuration: c, logger: Self.quiet)
        let error = await #expect(throws: ConfigurationError.self) { try await built.app.test(.router) { _ in } }
        #expect(error?.message.contains("The database needs migrations") == true, "\(String(describing: error))")
    }
}
