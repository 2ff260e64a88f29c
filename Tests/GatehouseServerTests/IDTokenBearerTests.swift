import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// `GATEHOUSE_ACCEPT_ID_TOKENS`: the seeds' iOS apps call the API with `getIdToken()` as the bearer.
@Suite(
    "ID tokens as bearer: only when enabled, only for this client, only while the session lives",
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct IDTokenBearerTests {
    @Test func refusedUnlessEnabled() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            let tokens = try await client.signedIn(app)
            #expect(try await client.send(.get, "/me", bearer: tokens.string("id_token")).status == .unauthorized)
            #expect(try await client.send(.get, "/me", bearer: tokens.string("access_token")).status == .ok)
        }
    }

    @Test func acceptedWhenEnabledWhileTheSessionLives() async throws {
        let app = try await TestApp.make { $0.acceptIDTokens = true }
        try await app.router { client in
            let tokens = try await client.signedIn(app)
            let idToken = tokens.string("id_token")
            let me = try await client.send(.get, "/me", bearer: idToken)
            #expect(me.status == .ok && me.string("email") == "alice@example.com")
            #expect(
                try await client.send(.post, "/auth/signout", json: ["refresh_token": .string(tokens.string("refresh_token"))]).status == .noContent
            )
            #expect(try await client.send(.get, "/me", bearer: idToken).status == .unauthorized, "an ended session's ID tokens fail at once")
        }
    }

    @Test func anIDTokenForAnotherAudienceOrIssuerIsRefused() async throws {
        let app = try await TestApp.make { $0.acceptIDTokens = true }
        let other = try await TestApp.make {
            $0.acceptIDTokens = true
            $0.clientID = "another-client"
        }
        let foreign = try await other.router { client in try await client.signedIn(other).string("id_token") }
        try await app.router { client in
            _ = try await client.signedIn(app)
            // Signed by another server's keys for another client: refused whatever its claims.
            #expect(try await client.send(.get, "/me", bearer: foreign).status == .unauthorized)
        }
    }
}
