import Foundation
import GatehouseCore
import GatehouseStore
import GatehouseTesting
import Testing

/// Issue 29: what a user's session list reads (migration 12) and a pending email change (migration 13).
extension StoreContractTests {
    @Test(arguments: TestDatabase.available)
    func sessionsKeepTheirDeviceAddressAndLastRefresh(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let alice = Self.user()
            let bob = Self.user(email: "b@example.com")
            let userAgent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) 'Ä'; DROP TABLE gh_sessions; --"
            let first = SessionRecord(
                id: "s1",
                userID: alice.id,
                method: "password+otp",
                authTime: Self.t0,
                createdAt: Self.t0,
                userAgent: userAgent,
                clientAddress: "203.0.113.0/24"
            )
            let second = SessionRecord(id: "s2", userID: alice.id, method: "google", authTime: Self.t0, createdAt: Self.t0.addingTimeInterval(1))
            try await store.write { tx in
                try await tx.insertUser(alice)
                try await tx.insertUser(bob)
                try await tx.insertSession(first)
                try await tx.insertSession(second)
                try await tx.insertSession(SessionRecord(id: "s3", userID: alice.id, method: "phone", authTime: Self.t0, createdAt: Self.t0))
                try await tx.insertSession(SessionRecord(id: "b1", userID: bob.id, method: "password", authTime: Self.t0, createdAt: Self.t0))
                try await tx.revokeSession(id: "s3", at: Self.t0, reason: .endedByUser)
            }
            #expect(try await store.read { try await $0.session(id: "s1") } == first, "the new columns round-trip")
            #expect(try await store.read { try await $0.activeSessions(userID: alice.id) } == [first, second], "active only, oldest first, own only")
            #expect(try await store.read { try await $0.session(id: "s3") }?.revokedReason == "ended_by_user")

            // A refresh notes when and from where; a missing value keeps the one stored.
            let later = Self.t0.addingTimeInterval(90)
            try await store.write { try await $0.recordRefresh(sessionID: "s1", at: later, userAgent: nil, clientAddress: "2001:db8:1::/48") }
            var refreshed = first
            refreshed.lastRefreshedAt = later
            refreshed.clientAddress = "2001:db8:1::/48"
            #expect(try await store.read { try await $0.session(id: "s1") } == refreshed)
            try await store.write { try await $0.recordRefresh(sessionID: "s2", at: later, userAgent: "curl/8.4.0", clientAddress: nil) }
            let s2 = try #require(try await store.read { try await $0.session(id: "s2") })
            #expect(s2.userAgent == "curl/8.4.0" && s2.clientAddress == nil && s2.lastRefreshedAt == later)
            #expect(try await store.read { try await $0.activeSessions(userID: "nobody") }.isEmpty)
        }
    }

    /// The user's code row for `purpose`, read in its own transaction.
    static func storedCode(_ store: SQLStore, _ purpose: OneTimeCodeRecord.Purpose) async throws -> OneTimeCodeRecord? {
        try await store.read { tx in try await tx.code(userID: "u1", purpose: purpose) }
    }

    /// One try of the user's `change_email` code, spent in its own transaction.
    static func spendChangeCode(_ store: SQLStore) async throws -> OneTimeCodeRecord? {
        try await store.write { tx in try await tx.spendCodeAttempt(userID: "u1", purpose: .changeEmail, maxAttempts: 5) }
    }

    static func replace(_ store: SQLStore, _ code: OneTimeCodeRecord) async throws {
        try await store.write { tx in try await tx.replaceCode(code) }
    }

    @Test(arguments: TestDatabase.available)
    func aPendingEmailChangeIsOneCodeRowReplacedWhole(_ database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = OneTimeCodeRecord(
                userID: "u1",
                purpose: .changeEmail,
                codeHash: "h1",
                createdAt: Self.t0,
                expiresAt: Self.t0.addingTimeInterval(3600),
                address: "New@Example.com"
            )
            try await Self.replace(store, first)
            let stored = try await Self.storedCode(store, .changeEmail)
            #expect(stored == first)
            // A reset code of the same user is another row, without an address.
            let reset = OneTimeCodeRecord(userID: "u1", purpose: .resetPassword, codeHash: "r", createdAt: Self.t0, expiresAt: Self.t0)
            try await Self.replace(store, reset)
            let storedReset = try await Self.storedCode(store, .resetPassword)
            #expect(storedReset == reset)

            // A later request replaces code, address and tries together.
            let firstTry = try await Self.spendChangeCode(store)
            #expect(firstTry?.attempts == 1 && firstTry?.address == "New@Example.com")
            let second = OneTimeCodeRecord(
                userID: "u1",
                purpose: .changeEmail,
                codeHash: "h2",
                createdAt: Self.t0.addingTimeInterval(5),
                expiresAt: Self.t0.addingTimeInterval(3605),
                address: "other@example.com"
            )
            try await Self.replace(store, second)
            let replaced = try await Self.storedCode(store, .changeEmail)
            #expect(replaced == second, "the tries start again with the new code")
            let spent = try await Self.spendChangeCode(store)
            #expect(spent?.address == "other@example.com" && spent?.codeHash == "h2" && spent?.attempts == 1)
            try await store.write { tx in try await tx.deleteCodes(userID: "u1") }
            let gone = try await Self.storedCode(store, .changeEmail)
            #expect(gone == nil)
        }
    }
}
