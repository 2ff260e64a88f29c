import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseServer

/// Issue 14, point 4: the purge of expired rows runs once per interval across instances.
@Suite("Maintenance: one purge across instances", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MaintenanceTests {
    @Test(arguments: TestDatabase.available)
    func onlyOneInstancePurgesPerInterval(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
            func instance(_ name: String) -> MaintenanceService {
                MaintenanceService(store: store, keys: nil, keyring: nil, clock: clock, logger: Logger(label: "t"), instance: name)
            }
            let a = instance("a")
            let b = instance("b")
            let r1 = try await a.purgeIfFirst()
            #expect(r1 != nil, "the first instance purges")
            let r2 = try await b.purgeIfFirst()
            #expect(r2 == nil, "the second skips this round")
            let r3 = try await a.purgeIfFirst()
            #expect(r3 != nil, "the holder keeps its turn")
            clock.advance(by: 541)
            let r4 = try await b.purgeIfFirst()
            #expect(r4 != nil, "once the round is over, whoever comes first purges")
            let r5 = try await a.purgeIfFirst()
            #expect(r5 == nil)
        }
    }
}
