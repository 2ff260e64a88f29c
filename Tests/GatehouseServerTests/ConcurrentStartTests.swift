import Foundation
import GatehouseCore
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Issue 14, point 3: instances starting together on an empty PostgreSQL database (schema included)
/// migrate it once, under the advisory lock, and all start.
@Suite("Instances starting together on PostgreSQL", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ConcurrentStartTests {
    @Test func threeInstancesOnAnEmptyDatabaseMigrateOnceAndAllStart() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let apps = try await CrossInstanceInvalidationTests.instances(3).apps
        let started = try await withThrowingTaskGroup(of: Int.self) { group in
            for app in apps {
                group.addTask {
                    try await app.router { client in
                        let ready = try await client.send(.get, "/ready")
                        return ready.status == .ok ? 1 : 0
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(started == 3, "every instance started and is ready")
        // One key set and one client id: the three agree.
        let clientIDs = apps.map { $0.built.clientID }
        #expect(Set(clientIDs).count == 1)
    }
}
