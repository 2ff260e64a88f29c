import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Routes: profile and operations", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ProfileAndOperationsRoutesTests {
    /// One app per database for the tests that need nothing of their own, reset before each.
    static let apps = TestApp.shared()

    @Test func profileIsCreatedJustInTimeAndEditable() async throws {
        try await Self.apps.router { app, client in
            let tokens = try await client.signedIn(app)
            let access = tokens.string("access_token")
            let sub = try CompactJWS(parsing: access).claims["sub"]?.stringValue
            #expect(try await app.built.store.read { try await $0.profile(sub: sub ?? "") } == nil, "no profile before the first call")
            let me = try await client.send(.get, "/me", bearer: access)
            #expect(me.status == .ok && me.headers[.cacheControl] == "no-store")
            #expect(me.string("sub") == sub && me["email_verified"] == .bool(true))
            #expect(me["identities"] == .array([["provider": "password", "linked_at": me["created_at"]!]]))
            let patched = try await client.send(.patch, "/me", json: ["full_name": "Alice L.", "unknown_field": 5], bearer: access)
            #expect(patched.status == .ok && patched.string("full_name") == "Alice L.")
            let cleared = try await client.send(.patch, "/me", json: ["full_name": nil], bearer: access)
            #expect(cleared["full_name"] == .null)
            let bad = try await client.send(.patch, "/me", json: ["full_name": 42], bearer: access)
            #expect(bad.status == .badRequest && bad.errorCode == "invalid_request")
            let deleted = try await client.send(.delete, "/me", bearer: access)
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: access).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!]).status == .unauthorized)
            #expect(
                try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"]).status
                    == .unauthorized
            )
        }
    }

    @Test func discoveryDocumentsDescribeTheKeys() async throws {
        try await Self.apps.router { app, client in
            let jwks = try await client.send(.get, "/.well-known/jwks.json")
            #expect(jwks.status == .ok && jwks.headers[.cacheControl] == "public, max-age=600")
            let keys = try JWSKeySet.parseJWKS(Array(jwks.bodyText.utf8))
            #expect(keys.keys.count == 2)
            let tokens = try await client.signedIn(app)
            for token in [tokens.string("id_token"), tokens.string("access_token")] {
                let jws = try CompactJWS(parsing: token)
                try keys.verify(jws)
            }
            #expect(try CompactJWS(parsing: tokens.string("id_token")).keyID != (try CompactJWS(parsing: tokens.string("access_token")).keyID))
            let config = try await client.send(.get, "/.well-known/openid-configuration")
            #expect(config.string("issuer") == "http://gatehouse.test")
            #expect(config.string("jwks_uri") == "http://gatehouse.test/.well-known/jwks.json")
        }
    }

    @Test func healthReadinessMetricsAndOpenAPI() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            #expect(try await client.send(.get, "/health")["status"] == "ok")
            #expect(try await client.send(.get, "/ready")["status"] == "ready")
            _ = try await client.signedIn(app)
            _ = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "nope nope 1"])
            _ = try await client.send(.get, "/nope/\(UUID().uuidString)")
            let metrics = try await client.send(.get, "/metrics")
            #expect(metrics.status == .ok && metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(metrics.bodyText.contains(#"gatehouse_http_requests_total{method="POST",route="/auth/signin",status="200"}"#))
            #expect(metrics.bodyText.contains(#"gatehouse_signin_total{method="password",outcome="success"} 1"#))
            #expect(metrics.bodyText.contains(#"gatehouse_signin_total{method="password",outcome="invalid_credentials"} 1"#))
            #expect(metrics.bodyText.contains("gatehouse_http_request_duration_seconds_bucket"))
            #expect(!metrics.bodyText.contains("/nope/"), "route templates only, never raw paths")
            let openapi = try await client.send(.get, "/openapi.yaml")
            #expect(openapi.status == .ok && openapi.bodyText.hasPrefix("openapi: 3.1.0"))
        }
    }

    @Test func readinessFailsWhenStorageIsGone() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            try await app.built.store.close()
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .serviceUnavailable && ready.errorCode == "unavailable")
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }
}
