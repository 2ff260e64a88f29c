import Foundation
import GatehouseCore
import GatehouseStore
import GatehouseTesting
import Testing

/// The contract every store backend keeps. Each test runs against SQLite and, when a server is
/// configured (always in CI), PostgreSQL.
@Suite("Store contract", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct StoreContractTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func user(_ id: String = UUID().uuidString.lowercased(), email: String? = "a@example.com") -> UserRecord {
        UserRecord(
            id: id,
            email: email,
            emailKey: email?.lowercased(),
            emailVerified: false,
            passwordHash: "$scrypt$x",
            confirmed: false,
            name: "Ä'; DROP TABLE gh_users; --",
            createdAt: t0,
            updatedAt: t0
        )
    }

    @Test(arguments: TestDatabase.available)
    func usersRoundTripAndEmailIsUnique(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let alice = Self.user(email: "Alice@Example.com")
            try await store.write { try await $0.insertUser(alice) }
            #expect(try await store.read { try await $0.user(id: alice.id) } == alice)
            #expect(try await store.read { try await $0.user(emailKey: "alice@example.com") } == alice)
            await #expect(throws: StoreConflict.self) {
                try await store.write { try await $0.insertUser(Self.user(email: "alice@example.com")) }
            }
            // Users without a claimed address do not collide.
            try await store.write { tx in
                try await tx.insertUser(Self.user(email: nil))
                try await tx.insertUser(Self.user(email: nil))
            }
            var updated = alice
            updated.confirmed = true
            updated.emailVerified = true
            updated.name = nil
            updated.updatedAt = Self.t0.addingTimeInterval(5)
            let changed = updated
            try await store.write { try await $0.updateUser(changed) }
            #expect(try await store.read { try await $0.user(id: alice.id) } == changed)
            try await store.write { try await $0.deleteUser(id: alice.id) }
            #expect(try await store.read { try await $0.user(id: alice.id) } == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aFailedTransactionLeavesNothingBehind(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let alice = Self.user()
            struct Crash: Error {}
            await #expect(throws: Crash.self) {
                try await store.write { tx in
                    try await tx.insertUser(alice)
                    try await tx.insertSession(SessionRecord(id: "s1", userID: alice.id, method: "password", authTime: Self.t0, createdAt: Self.t0))
                    throw Crash()
                }
            }
            #expect(try await store.read { try await $0.user(id: alice.id) } == nil)
            #expect(try await store.read { try await $0.session(id: "s1") } == nil)
            // A conflict in the middle of a transaction also rolls back the earlier statements.
            try await store.write { try await $0.insertUser(alice) }
            let bob = Self.user(email: "bob@example.com")
            await #expect(throws: StoreConflict.self) {
                try await store.write { tx in
                    try await tx.insertUser(bob)
                    try await tx.insertUser(Self.user(email: "a@example.com"))
                }
            }
            #expect(try await store.read { try await $0.user(id: bob.id) } == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func sessionsAndRefreshTokensRotateOnce(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let session = SessionRecord(id: "s1", userID: "u1", method: "password", authTime: Self.t0, createdAt: Self.t0)
            let token = RefreshTokenRecord(
                tokenHash: "h1",
                sessionID: "s1",
                userID: "u1",
                createdAt: Self.t0,
                expiresAt: Self.t0.addingTimeInterval(100)
            )
            try await store.write { tx in
                try await tx.insertSession(session)
                try await tx.insertSession(SessionRecord(id: "s2", userID: "u1", method: "google", authTime: Self.t0, createdAt: Self.t0))
                try await tx.insertRefreshToken(token)
            }
            #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == token)
            #expect(try await store.write { try await $0.markRefreshTokenRotated(hash: "h1", successorHash: "h2", at: Self.t0) })
            #expect(try await !store.write { try await $0.markRefreshTokenRotated(hash: "h1", successorHash: "h3", at: Self.t0) })
            #expect(try await store.read { try await $0.refreshToken(hash: "h1") }?.successorHash == "h2")

            #expect(try await store.write { try await $0.revokeSession(id: "s1", at: Self.t0, reason: .signOut) })
            #expect(try await !store.write { try await $0.revokeSession(id: "s1", at: Self.t0, reason: .signOut) })
            #expect(try await store.read { try await $0.session(id: "s1") }?.revokedReason == "sign_out")
            try await store.write {
                try await $0.insertSession(SessionRecord(id: "s3", userID: "u1", method: "apple", authTime: Self.t0, createdAt: Self.t0))
            }
            let ended = try await store.write { try await $0.revokeSessions(userID: "u1", except: "s3", at: Self.t0, reason: .passwordChange) }
            #expect(ended == ["s2"])
            #expect(try await store.read { try await $0.activeSessionIDs(userID: "u1") } == ["s3"])
            try await store.write { try await $0.deleteSessions(userID: "u1") }
            #expect(try await store.read { try await $0.session(id: "s3") } == nil)
            #expect(try await store.read { try await $0.refreshToken(hash: "h1") } == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func codesReplaceAndCountAttempts(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let code = OneTimeCodeRecord(
                userID: "u1",
                purpose: .confirmSignUp,
                codeHash: "c1",
                createdAt: Self.t0,
                expiresAt: Self.t0.addingTimeInterval(60)
            )
            try await store.write { try await $0.replaceCode(code) }
            #expect(try await store.write { try await $0.spendCodeAttempt(userID: "u1", purpose: .confirmSignUp, maxAttempts: 2) }?.attempts == 1)
            #expect(try await store.write { try await $0.spendCodeAttempt(userID: "u1", purpose: .confirmSignUp, maxAttempts: 2) }?.codeHash == "c1")
            // Its tries are used up: nothing is counted any more.
            #expect(try await store.write { try await $0.spendCodeAttempt(userID: "u1", purpose: .confirmSignUp, maxAttempts: 2) } == nil)
            #expect(try await store.read { try await $0.code(userID: "u1", purpose: .confirmSignUp) }?.attempts == 2)
            #expect(try await store.write { try await $0.spendCodeAttempt(userID: "u1", purpose: .resetPassword, maxAttempts: 2) } == nil)
            var fresh = code
            fresh.codeHash = "c2"
            let replacement = fresh
            try await store.write { try await $0.replaceCode(replacement) }
            #expect(try await store.read { try await $0.code(userID: "u1", purpose: .confirmSignUp) } == replacement)
            #expect(try await store.read { try await $0.code(userID: "u1", purpose: .resetPassword) } == nil)
            try await store.write { try await $0.deleteCodes(userID: "u1") }
            #expect(try await store.read { try await $0.code(userID: "u1", purpose: .confirmSignUp) } == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func rateCountersWindowAndBlock(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            for expected in 1...3 {
                let counter = try await store.write {
                    try await $0.incrementCounter(bucket: "b", now: Self.t0.addingTimeInterval(Double(expected)), window: 60)
                }
                #expect(counter.count == expected && counter.windowStart == Self.t0.addingTimeInterval(1))
            }
            try await store.write { try await $0.setBlockedUntil(bucket: "b", until: Self.t0.addingTimeInterval(30)) }
            #expect(try await store.read { try await $0.counter(bucket: "b") }?.blockedUntil == Self.t0.addingTimeInterval(30))
            let next = try await store.write { try await $0.incrementCounter(bucket: "b", now: Self.t0.addingTimeInterval(120), window: 60) }
            #expect(next == RateCounter(count: 1, windowStart: Self.t0.addingTimeInterval(120), blockedUntil: nil))
            try await store.write { try await $0.deleteCounter(bucket: "b") }
            #expect(try await store.read { try await $0.counter(bucket: "b") } == nil)
        }
    }

    /// A code's tries are spent one statement at a time: 20 concurrent guesses on one code (each in its
    /// own transaction, as a request's check is) spend exactly its 5 tries, under PostgreSQL's READ
    /// COMMITTED as on SQLite. (Reading `attempts` and then updating it let every concurrent guess
    /// see the old count.)
    @Test(arguments: TestDatabase.available)
    func concurrentGuessesNeverShareACodesTry(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let code = OneTimeCodeRecord(
                userID: "u1",
                purpose: .resetPassword,
                codeHash: "c1",
                createdAt: Self.t0,
                expiresAt: Self.t0.addingTimeInterval(60)
            )
            try await store.write { try await $0.replaceCode(code) }
            let spent = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await store.write { try await $0.spendCodeAttempt(userID: "u1", purpose: .resetPassword, maxAttempts: 5) } != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(spent == 5)
            #expect(try await store.read { try await $0.code(userID: "u1", purpose: .resetPassword) }?.attempts == 5)
        }
    }

    @Test(arguments: TestDatabase.available)
    func reservedAttemptsAreRefusedWhileBlockedAndCanBeTakenBack(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            func reserve(at offset: TimeInterval) async throws -> RateCounter? {
                try await store.write { try await $0.reserveAttempt(bucket: "r", now: Self.t0.addingTimeInterval(offset), window: 60) }
            }
            func stored() async throws -> RateCounter? { try await store.read { try await $0.counter(bucket: "r") } }

            let first = try await reserve(at: 0)
            #expect(first == RateCounter(count: 1, windowStart: Self.t0, blockedUntil: nil))
            try await store.write { try await $0.setBlockedUntil(bucket: "r", until: Self.t0.addingTimeInterval(10)) }
            // Blocked: refused, and not counted.
            let refused = try await reserve(at: 5)
            #expect(refused == nil)
            let afterRefusal = try await stored()
            #expect(afterRefusal?.count == 1)
            // Taking the attempt back takes back the block it set, too.
            try await store.write { try await $0.releaseAttempt(bucket: "r", windowStart: Self.t0, blockedUntil: Self.t0.addingTimeInterval(10)) }
            let released = try await stored()
            #expect(released == RateCounter(count: 0, windowStart: Self.t0, blockedUntil: nil))
            // Once the block is over, attempts count again; a new window starts afresh.
            let second = try await reserve(at: 11)
            #expect(second?.count == 1)
            let later = try await reserve(at: 200)
            #expect(later == RateCounter(count: 1, windowStart: Self.t0.addingTimeInterval(200), blockedUntil: nil))
            // A release for a window that is over changes nothing.
            try await store.write { try await $0.releaseAttempt(bucket: "r", windowStart: Self.t0, blockedUntil: nil) }
            let unchanged = try await stored()
            #expect(unchanged?.count == 1)
        }
    }

    /// 60 concurrent reservations of one bucket, each blocking it once past 5: exactly 6 get through
    /// (the 6th sets the block), the same as 60 sequential ones at the same instant.
    @Test(arguments: TestDatabase.available)
    func concurrentReservationsGetNoMoreThroughThanSequentialOnes(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<60 {
                    group.addTask {
                        try await store.write { tx in
                            guard let counter = try await tx.reserveAttempt(bucket: "flood", now: Self.t0, window: 3600) else { return false }
                            if counter.count > 5 { try await tx.setBlockedUntil(bucket: "flood", until: Self.t0.addingTimeInterval(1)) }
                            return true
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(admitted == 6)
        }
    }

    @Test(arguments: TestDatabase.available)
    func secretsAreCreatedOnceAndSharedByEveryone(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let values = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 { group.addTask { try await store.secrets.insertSecretIfAbsent("k", sealed: "v\(index)") } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(values.count == 1)
            #expect(try await store.secrets.insertSecretIfAbsent("k", sealed: "other") == values.first)
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentCounterIncrementsAreNotLost(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask { _ = try await store.write { try await $0.incrementCounter(bucket: "c", now: Self.t0, window: 60) } }
                }
                try await group.waitForAll()
            }
            #expect(try await store.read { try await $0.counter(bucket: "c") }?.count == 20)
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentRotationHasOneWinner(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            try await store.write {
                try await $0.insertRefreshToken(
                    RefreshTokenRecord(tokenHash: "r", sessionID: "s", userID: "u", createdAt: Self.t0, expiresAt: Self.t0.addingTimeInterval(60))
                )
            }
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for i in 0..<10 {
                    group.addTask { try await store.write { try await $0.markRefreshTokenRotated(hash: "r", successorHash: "n\(i)", at: Self.t0) } }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }
}

/// Issue 14, point 4: background queues are worked once across the fleet.
@Suite("Store: background queues are claimed once across instances", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct StoreClaimTests {
    @Test(arguments: TestDatabase.available)
    func concurrentClaimsOfAppleRevocationsNeverOverlap(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.write { tx in
                for index in 0..<30 {
                    try await tx.enqueueRevocation(
                        AppleRevocationRecord(id: "r\(index)", clientID: "c", sealedRefreshToken: "s", createdAt: now, nextAttemptAt: now)
                    )
                }
            }
            let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var mine: [String] = []
                        while true {
                            let batch = try await store.write { tx in
                                try await tx.claimDueRevocations(now: now, leaseUntil: now.addingTimeInterval(300), limit: 3)
                            }
                            if batch.isEmpty { return mine }
                            mine += batch.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claims.count == 30 && Set(claims).count == 30, "each revocation claimed once: \(claims.count) claims")
            let later = now.addingTimeInterval(301)
            let again = try await store.write { tx in
                try await tx.claimDueRevocations(now: later, leaseUntil: later.addingTimeInterval(300), limit: 50)
            }
            #expect(again.count == 30, "unfinished after the lease (the claimer died): due again")
        }
    }
}
