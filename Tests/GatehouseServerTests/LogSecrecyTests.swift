import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Logs carry no secrets", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct LogSecrecyTests {
    @Test func noPasswordCodeTokenOrEmailReachesTheLog() async throws {
        let capture = LogCapture()
        let app = try await TestApp.make(logger: capture.logger(level: .trace))
        let secrets = try await app.router { client in
            var secrets: [String] = [
                "Alice.Secret@Example.com", "alice.secret@example.com", "correct horse 9", "second horse 10", "third horse 11", "wrong horse 9",
            ]
            let signUp = try await client.send(
                .post,
                "/auth/signup",
                json: ["email": "Alice.Secret@Example.com", "password": "correct horse 9", "full_name": "Alice"]
            )
            #expect(signUp.status == .created)
            _ = try await client.send(.post, "/auth/signup", json: ["email": "Alice.Secret@Example.com", "password": "correct horse 9"])
            let code = try #require(await app.mailer.latestCode(to: "Alice.Secret@Example.com", kind: "confirm_signup"))
            secrets.append(code)
            _ = try await client.send(.post, "/auth/confirm", json: ["email": "Alice.Secret@Example.com", "code": "999999"])
            _ = try await client.send(.post, "/auth/confirm", json: ["email": "Alice.Secret@Example.com", "code": .string(code)])
            _ = try await client.send(.post, "/auth/signin", json: ["email": "alice.secret@example.com", "password": "wrong horse 9"])
            let tokens = try await client.send(.post, "/auth/signin", json: ["email": "alice.secret@example.com", "password": "correct horse 9"])
            secrets += [tokens.string("id_token"), tokens.string("access_token"), tokens.string("refresh_token")]
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])
            secrets += [refreshed.string("id_token"), refreshed.string("access_token"), refreshed.string("refresh_token")]
            _ = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])
            app.clock.advance(by: 30)
            _ = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])  // reuse: logged as a warning
            let again = try await client.send(.post, "/auth/signin", json: ["email": "alice.secret@example.com", "password": "correct horse 9"])
            secrets += [again.string("access_token"), again.string("refresh_token")]
            _ = try await client.send(.get, "/me", bearer: again.string("access_token"))
            _ = try await client.send(.get, "/me", bearer: tokens.string("access_token"))  // refused, reason logged
            _ = try await client.send(.get, "/me", bearer: tokens.string("id_token"))
            _ = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "correct horse 9", "new_password": "second horse 10"],
                bearer: again.string("access_token")
            )
            app.clock.advance(by: 61)
            _ = try await client.send(.post, "/auth/password/forgot", json: ["email": "alice.secret@example.com"])
            let reset = try #require(await app.mailer.latestCode(to: "Alice.Secret@Example.com", kind: "reset_password"))
            secrets.append(reset)
            _ = try await client.send(
                .post,
                "/auth/password/reset",
                json: ["email": "alice.secret@example.com", "code": .string(reset), "new_password": "third horse 11"]
            )
            let last = try await client.send(.post, "/auth/signin", json: ["email": "alice.secret@example.com", "password": "third horse 11"])
            secrets += [last.string("access_token"), last.string("refresh_token")]
            _ = try await client.send(.post, "/auth/signout", json: ["refresh_token": last["refresh_token"]!])
            let final = try await client.send(.post, "/auth/signin", json: ["email": "alice.secret@example.com", "password": "third horse 11"])
            _ = try await client.send(.delete, "/me", bearer: final.string("access_token"))
            return secrets
        }
        let log = capture.text
        #expect(log.contains("request_id="), "the capture saw the flows")
        #expect(log.contains("user signed up") && log.contains("password reset") && log.contains("refresh token reused"))
        for secret in secrets where !secret.isEmpty {
            #expect(!log.contains(secret), "a secret reached the log: \(secret.prefix(12))…")
        }
        // Parts of tokens (their signatures) must not appear either.
        for token in secrets where token.split(separator: ".").count == 3 {
            #expect(!log.contains(String(token.split(separator: ".")[2])))
        }
        #expect(!log.lowercased().contains("alice.secret"))
    }
}
