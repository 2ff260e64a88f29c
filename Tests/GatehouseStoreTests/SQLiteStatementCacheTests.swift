import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

@testable import GatehouseStore

/// The SQLite backend keeps its statements prepared. SQLite re-prepares a statement on every run
/// when it ties the query plan to bound values (it did for the identity-and-user join of every
/// returning social sign-in): correct, but the parse cost lands on the hot path.
@Suite("SQLite: hot statements stay prepared", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SQLiteStatementCacheTests {
    @Test func theSignInAndSessionStatementsAreNotReprepared() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let backend = try #require(store.backend as? SQLiteBackend)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let user = UserRecord(
                id: "u1",
                email: "a@example.com",
                emailKey: "a@example.com",
                emailVerified: true,
                passwordHash: nil,
                confirmed: true,
                name: nil,
                createdAt: now,
                updatedAt: now
            )
            try await store.write { tx in
                try await tx.insertUser(user)
                try await tx.insertIdentity(
                    IdentityRecord(
                        provider: "google",
                        providerSubject: "g-1",
                        userID: "u1",
                        email: "a@example.com",
                        emailVerified: true,
                        linkedAt: now
                    )
                )
            }
            let before = backend.reprepareCount
            for round in 0..<4 {
                // Different values each round: a plan tied to the values would be re-made each time.
                let found = try await store.read { try await $0.identityWithUser(provider: "google", subject: round == 3 ? "g-1" : "g-\(round + 7)") }
                #expect((found != nil) == (round == 3))
                let session = SessionRecord(id: "s\(round)", userID: "u1", method: "google", authTime: now, createdAt: now)
                try await store.write { tx in
                    try await tx.insertSession(session)
                    try await tx.insertRefreshToken(
                        RefreshTokenRecord(
                            tokenHash: "h\(round)",
                            sessionID: session.id,
                            userID: "u1",
                            createdAt: now,
                            expiresAt: now.addingTimeInterval(60)
                        )
                    )
                }
                #expect(try await store.read { try await $0.session(id: session.id) }?.userID == "u1")
                #expect(try await store.read { try await $0.user(id: "u1") } == user)
            }
            #expect(backend.reprepareCount == before, "a hot statement was re-prepared")
        }
    }
}
