import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

/// The admin key's shape and the opaque cursors: only what Gatehouse hands out is accepted.
@Suite("Admin keys and user cursors")
struct AdminKeyAndCursorTests {
    @Test func aKeyHasOneShapeAndNoUserTokenHasIt() {
        let key = AdminKey.generate(SystemRandomSource())
        #expect(key.hasPrefix("gha_") && key.utf8.count == 47)
        #expect(AdminKey.hash(key) != nil && AdminKey.hash(key) == AdminKey.hash(key))
        #expect(AdminKey.hash(AdminKey.generate(SystemRandomSource())) != AdminKey.hash(key))
        for bad in [
            "", "gha_", key + "A", String(key.dropLast()), "GHA_" + key.dropFirst(4), "gha_" + String(repeating: "=", count: 43),
            "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "gha_" + String(repeating: "é", count: 43),
        ] {
            #expect(AdminKey.hash(bad) == nil, "\(bad)")
        }
        #expect(AdminKey.isValidName("ci") && AdminKey.isValidName("deploy.bot-2_b"))
        for bad in ["", "a b", String(repeating: "x", count: 65), "ключ", "a/b"] { #expect(!AdminKey.isValidName(bad), "\(bad)") }
    }

    @Test func aCursorRoundTripsAndAnythingElseIsRefused() {
        let cursor = UserCursor(createdAt: Date(timeIntervalSince1970: 1_790_000_000), sub: "0b7c9f1e-1111-4222-8333-944445555666")
        #expect(UserCursor(encoded: cursor.encoded) == cursor)
        for bad in [
            "", "!!!", Base64URL.encode(Array("nope".utf8)), Base64URL.encode(Array("-5:abc".utf8)), Base64URL.encode(Array("12:".utf8)),
            Base64URL.encode(Array("12:a b".utf8)), Base64URL.encode(Array(("12:" + String(repeating: "a", count: 129)).utf8)),
        ] {
            #expect(UserCursor(encoded: bad) == nil, "\(bad)")
        }
    }

    @Test func queriesClampTheirLimitsAndEntriesCutTheirDetail() {
        #expect(UserQuery(limit: 0).limit == 1 && UserQuery(limit: 10_000).limit == UserQuery.maximumLimit)
        #expect(AuditQuery(limit: -3).limit == 1 && AuditQuery(limit: 10_000).limit == AuditQuery.maximumLimit)
        let origin = AuditOrigin(actor: "user", client: ClientInfo(address: "::1", userAgent: String(repeating: "u", count: 999), requestID: "r1"))
        let entry = AuditEntry.make(
            .signIn,
            userID: "u",
            detail: String(repeating: "d", count: 999),
            origin: origin,
            at: Date(),
            random: SystemRandomSource()
        )
        #expect(entry.detail?.count == 200 && entry.userAgent?.count == ClientInfo.maximumUserAgentLength && entry.requestID == "r1")
    }
}
