import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Live: a user's journey over a real socket", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct LiveJourneyTests {
    @Test(arguments: TestDatabase.available)
    func signUpConfirmSignInRefreshMeSignOutDelete(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database)
        try await app.live { client in
            let port = try #require(client.port)
            let tokens = try await client.signedIn(app)
            #expect(tokens.status == .ok)
            try await IndependentVerifier.expectAccepts(tokens, port: port)
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])
            #expect(refreshed.status == .ok)
            let me = try await client.send(.get, "/me", bearer: refreshed.string("access_token"))
            #expect(me.status == .ok && me.string("email") == "alice@example.com")
            #expect(me.headers[.xRequestID] != nil)
            #expect(try await client.send(.post, "/auth/signout", json: ["refresh_token": refreshed["refresh_token"]!]).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: refreshed.string("access_token")).status == .unauthorized)
            let again = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
            #expect(try await client.send(.delete, "/me", bearer: again.string("access_token")).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: again.string("access_token")).status == .unauthorized)
        }
    }

    @Test func oversizedChunkedBodyIsRefusedOverTheWire() async throws {
        let app = try await TestApp.make { $0.maxBodySize = 1024 }
        try await app.live { client in
            let big = String(repeating: "a", count: 10_000)
            let reply = try await client.send(.post, "/auth/signup", raw: #"{"email":"x@example.com","password":""# + big + #""}"#)
            #expect(reply.status == .contentTooLarge)
        }
    }
}
