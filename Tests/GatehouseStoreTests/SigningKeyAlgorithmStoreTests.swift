import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Migration 19: each signing key records its algorithm, and switching `GATEHOUSE_TOKEN_ALG` retires
/// the active key of the other algorithm exactly once, even when instances start together.
@Suite("Store: signing-key algorithms (migration 19)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SigningKeyAlgorithmStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: TestDatabase.available)
    func keysFromBeforeMigration19ReadAsRS256(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "test-store")
        try await StoreLocation(url: url).withStore(logger: logger) { store in
            try await Migrator(backend: store.backend, migrations: Migration.all.filter { $0.version < 19 }).migrate(logger: logger)
            try await store.backend.write { db in
                try await db.raw(
                    "INSERT INTO gh_signing_keys (kid, use, sealed_private_key, created_at) VALUES ('old', 'access', 'v1.x', 10)"
                ).run()
            }
            #expect(try await store.pendingMigrations().contains("19 signing key algorithm"))
            try await store.migrate(logger: logger)
            let keys = try await store.secrets.signingKeys()
            #expect(keys.map(\.kid) == ["old"] && keys[0].algorithm == "RS256")
        }
    }

    @Test(arguments: TestDatabase.available)
    func switchingRetiresTheOtherAlgorithmOnce(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let rsa = StoredSigningKey(kid: "a1", use: "access", sealedPrivateKey: "v1.r", createdAt: Self.t0)
            let idKey = StoredSigningKey(kid: "i1", use: "id", sealedPrivateKey: "v1.i", createdAt: Self.t0)
            _ = try await store.secrets.addInitialSigningKey(rsa)
            _ = try await store.secrets.addInitialSigningKey(idKey)
            let ec = StoredSigningKey(
                kid: "a2",
                use: "access",
                sealedPrivateKey: "v1.e",
                createdAt: Self.t0.addingTimeInterval(1),
                algorithm: "ES256"
            )
            let retire = Self.t0.addingTimeInterval(1)
            let expire = Self.t0.addingTimeInterval(100)
            #expect(try await store.secrets.switchSigningKey(ec, retirePreviousAt: retire, expirePreviousAt: expire) == ec)
            // A second instance with the same setting, a moment later: nothing changes, it adopts a2.
            let late = StoredSigningKey(
                kid: "a3",
                use: "access",
                sealedPrivateKey: "v1.f",
                createdAt: Self.t0.addingTimeInterval(2),
                algorithm: "ES256"
            )
            #expect(try await store.secrets.switchSigningKey(late, retirePreviousAt: retire, expirePreviousAt: expire) == ec)
            let keys = try await store.secrets.signingKeys()
            #expect(Set(keys.map(\.kid)) == ["a1", "i1", "a2"])
            let old = try #require(keys.first { $0.kid == "a1" })
            #expect(old.algorithm == "RS256" && old.retiredAt == retire && old.expiresAt == expire, "the RSA key verifies until its expiry")
            #expect(keys.first { $0.kid == "i1" }?.retiredAt == nil, "the other use's key is untouched")
            #expect(keys.first { $0.kid == "a2" }?.algorithm == "ES256")
        }
    }

    @Test(arguments: TestDatabase.available)
    func instancesSwitchingAtOnceAgreeOnOneKey(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.secrets.addInitialSigningKey(StoredSigningKey(kid: "a0", use: "access", sealedPrivateKey: "v1.r", createdAt: Self.t0))
            let winners = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 1...6 {
                    group.addTask {
                        let key = StoredSigningKey(
                            kid: "e\(index)",
                            use: "access",
                            sealedPrivateKey: "v1.\(index)",
                            createdAt: Self.t0.addingTimeInterval(1),
                            algorithm: "ES256"
                        )
                        let retire = Self.t0.addingTimeInterval(1)
                        return try await store.secrets.switchSigningKey(
                            key,
                            retirePreviousAt: retire,
                            expirePreviousAt: retire.addingTimeInterval(60)
                        ).kid
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(winners.count == 1, "every instance signs with the same key: \(winners)")
            let keys = try await store.secrets.signingKeys()
            #expect(keys.count == 2 && keys.filter { $0.retiredAt == nil }.map(\.kid) == Array(winners))
        }
    }
}
