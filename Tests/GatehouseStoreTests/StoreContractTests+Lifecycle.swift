import Foundation
import GatehouseCore
import GatehouseStore
import GatehouseTesting
import Testing

/// The store contract, continued: signing keys, purging, Apple web states, migrations, subject
/// cut-offs, leases and Cognito passwords.
extension StoreContractTests {
    @Test(arguments: TestDatabase.available)
    func identitiesProfilesAndSettings(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let identity = IdentityRecord(
                provider: "google",
                providerSubject: "g-1",
                userID: "u1",
                email: "x@gmail.com",
                emailVerified: true,
                linkedAt: Self.t0
            )
            try await store.write { try await $0.insertIdentity(identity) }
            await #expect(throws: StoreConflict.self) { try await store.write { try await $0.insertIdentity(identity) } }
            #expect(try await store.read { try await $0.identity(provider: "google", subject: "g-1") } == identity)
            #expect(try await store.read { try await $0.identities(userID: "u1") } == [identity])

            let profile = ProfileRecord(sub: "u1", email: nil, emailVerified: false, fullName: "名前 😀", createdAt: Self.t0, updatedAt: Self.t0)
            #expect(try await store.write { try await $0.insertProfileIfAbsent(profile) } == profile)
            var changed = profile
            changed.fullName = "other"
            let other = changed
            #expect(try await store.write { try await $0.insertProfileIfAbsent(other) } == profile, "the first profile stays")
            try await store.write { try await $0.updateProfile(other) }
            #expect(try await store.read { try await $0.profile(sub: "u1") }?.fullName == "other")

            #expect(try await store.write { try await $0.insertSettingIfAbsent("k", value: "1") } == "1")
            #expect(try await store.write { try await $0.insertSettingIfAbsent("k", value: "2") } == "1")
        }
    }

    @Test(arguments: TestDatabase.available)
    func signingKeysHaveOneActiveKeyPerUse(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = StoredSigningKey(kid: "a1", use: "access", sealedPrivateKey: "v1.x", createdAt: Self.t0)
            let racer = StoredSigningKey(kid: "a2", use: "access", sealedPrivateKey: "v1.y", createdAt: Self.t0)
            #expect(try await store.secrets.addInitialSigningKey(first) == first)
            #expect(try await store.secrets.addInitialSigningKey(racer) == first, "a second instance adopts the first key")
            let next = StoredSigningKey(kid: "a3", use: "access", sealedPrivateKey: "v1.z", createdAt: Self.t0.addingTimeInterval(1))
            try await store.secrets.addSigningKey(
                next,
                retirePreviousAt: Self.t0.addingTimeInterval(1),
                expirePreviousAt: Self.t0.addingTimeInterval(100)
            )
            let keys = try await store.secrets.signingKeys()
            #expect(keys.map(\.kid) == ["a1", "a3"])
            #expect(keys[0].retiredAt != nil && keys[1].retiredAt == nil)
            try await store.secrets.deleteExpiredSigningKeys(now: Self.t0.addingTimeInterval(200))
            #expect(try await store.secrets.signingKeys().map(\.kid) == ["a3"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func purgeRemovesOnlyWhatIsSpent(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let day: TimeInterval = 86_400
            try await store.write { tx in
                try await tx.replaceCode(
                    OneTimeCodeRecord(userID: "old", purpose: .resetPassword, codeHash: "x", createdAt: Self.t0, expiresAt: Self.t0)
                )
                try await tx.replaceCode(
                    OneTimeCodeRecord(
                        userID: "new",
                        purpose: .resetPassword,
                        codeHash: "x",
                        createdAt: Self.t0,
                        expiresAt: Self.t0.addingTimeInterval(3 * day)
                    )
                )
                try await tx.insertSession(
                    SessionRecord(
                        id: "ended",
                        userID: "u",
                        method: "password",
                        authTime: Self.t0,
                        createdAt: Self.t0,
                        revokedAt: Self.t0,
                        revokedReason: "sign_out"
                    )
                )
                try await tx.insertSession(SessionRecord(id: "live", userID: "u", method: "password", authTime: Self.t0, createdAt: Self.t0))
                try await tx.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenHash: "live-token",
                        sessionID: "live",
                        userID: "u",
                        createdAt: Self.t0,
                        expiresAt: Self.t0.addingTimeInterval(30 * day)
                    )
                )
            }
            let removed = try await store.purgeExpired(now: Self.t0.addingTimeInterval(2 * day))
            #expect(removed == 2)
            #expect(try await store.read { try await $0.code(userID: "new", purpose: .resetPassword) } != nil)
            #expect(try await store.read { try await $0.session(id: "live") } != nil)
            #expect(try await store.read { try await $0.session(id: "ended") } == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWebStateIsUsedOnceAndForgottenAtExpiry(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let expires = Self.t0.addingTimeInterval(600)
            let firsts = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await store.write {
                            try await $0.recordAuthorizationStateUse(hash: "s1", codeChallenge: "c", expiresAt: expires, at: Self.t0)
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(firsts.filter { $0 }.count == 1, "exactly one of concurrent uses is the first")
            try await store.write {
                _ = try await $0.recordAuthorizationStateUse(hash: "s2", codeChallenge: "c", expiresAt: expires.addingTimeInterval(60), at: Self.t0)
            }
            #expect(try await store.purgeExpired(now: expires) == 0)
            #expect(try await store.purgeExpired(now: expires.addingTimeInterval(1)) == 1, "gone at expiry, not a day later")
            #expect(
                try await store.write { try await $0.recordAuthorizationStateUse(hash: "s2", codeChallenge: "c", expiresAt: expires, at: Self.t0) }
                    == false
            )
        }
    }

    @Test(arguments: TestDatabase.available)
    func migrationsAreIdempotent(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            #expect(try await store.migrate(logger: .init(label: "t")).isEmpty)
            #expect(try await store.pendingMigrations().isEmpty)
            try await store.ping()
        }
    }
    @Test(arguments: TestDatabase.available)
    func subjectCutOffsOnlyMoveForwardAndTombstonesStay(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let sub = UUID().uuidString.lowercased()
            #expect(try await store.read { try await $0.subjectRevocation(sub: sub) } == nil)
            try await store.write { try await $0.recordSubjectRevocation(sub: sub, revokedBefore: Self.t0.addingTimeInterval(100), deletedAt: nil) }
            try await store.write { try await $0.recordSubjectRevocation(sub: sub, revokedBefore: Self.t0, deletedAt: nil) }
            #expect(
                try await store.read { try await $0.subjectRevocation(sub: sub) }
                    == SubjectRevocation(sub: sub, revokedBefore: Self.t0.addingTimeInterval(100), deletedAt: nil)
            )
            try await store.write {
                try await $0.recordSubjectRevocation(
                    sub: sub,
                    revokedBefore: Self.t0.addingTimeInterval(200),
                    deletedAt: Self.t0.addingTimeInterval(200)
                )
            }
            try await store.write { try await $0.recordSubjectRevocation(sub: sub, revokedBefore: Self.t0.addingTimeInterval(300), deletedAt: nil) }
            let stored = try await store.read { try await $0.subjectRevocation(sub: sub) }
            #expect(stored?.revokedBefore == Self.t0.addingTimeInterval(300) && stored?.deletedAt == Self.t0.addingTimeInterval(200))
            // A day later the plain cut-off is purged; the tombstone is not.
            let other = UUID().uuidString.lowercased()
            try await store.write { try await $0.recordSubjectRevocation(sub: other, revokedBefore: Self.t0, deletedAt: nil) }
            _ = try await store.purgeExpired(now: Self.t0.addingTimeInterval(2 * 86_400))
            #expect(try await store.read { try await $0.subjectRevocation(sub: other) } == nil)
            #expect(try await store.read { try await $0.subjectRevocation(sub: sub) } != nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func leasesHaveOneHolderUntilReleasedOrExpired(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let until = Self.t0.addingTimeInterval(30)
            #expect(try await store.write { try await $0.acquireLease(name: "l", holder: "a", until: until, now: Self.t0) })
            #expect(try await store.write { try await $0.acquireLease(name: "l", holder: "b", until: until, now: Self.t0) } == false)
            #expect(try await store.write { try await $0.acquireLease(name: "l", holder: "a", until: until, now: Self.t0) }, "the holder may renew")
            try await store.write { try await $0.releaseLease(name: "l", holder: "b") }
            #expect(
                try await store.write { try await $0.acquireLease(name: "l", holder: "b", until: until, now: Self.t0) } == false,
                "only the holder releases"
            )
            try await store.write { try await $0.releaseLease(name: "l", holder: "a") }
            #expect(try await store.write { try await $0.acquireLease(name: "l", holder: "b", until: until, now: Self.t0) })
            #expect(
                try await store.write { try await $0.acquireLease(name: "l", holder: "c", until: until, now: until) },
                "an expired lease can be taken"
            )
            // Contenders at once: exactly one wins.
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for holder in 0..<8 {
                    group.addTask {
                        try await store.write { try await $0.acquireLease(name: "race", holder: "h\(holder)", until: until, now: Self.t0) }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func cognitoPasswordsAreKeptReplacedAndDeleted(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let sub = UUID().uuidString.lowercased()
            #expect(try await store.read { try await $0.cognitoPassword(sub: sub) } == nil)
            let first = CognitoPasswordRecord(sub: sub, sealedPassword: "v1.first", createdAt: Self.t0)
            try await store.write { try await $0.upsertCognitoPassword(first) }
            #expect(try await store.read { try await $0.cognitoPassword(sub: sub) } == first)
            let second = CognitoPasswordRecord(sub: sub, sealedPassword: "v1.second", createdAt: Self.t0.addingTimeInterval(60))
            try await store.write { try await $0.upsertCognitoPassword(second) }
            #expect(try await store.read { try await $0.cognitoPassword(sub: sub) } == second)
            try await store.write { try await $0.deleteCognitoPassword(sub: sub) }
            #expect(try await store.read { try await $0.cognitoPassword(sub: sub) } == nil)
        }
    }
}
