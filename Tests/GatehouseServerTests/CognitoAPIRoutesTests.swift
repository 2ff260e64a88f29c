import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Cognito's API at the router, where the test clock reaches: what the Python clients cannot wait for.
@Suite("Cognito API: routes, rotation and refusals", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CognitoAPIRoutesTests {
    static func call(
        _ client: any TestClientProtocol,
        _ operation: String,
        _ input: JSONValue,
        contentType: String = "application/x-amz-json-1.1"
    ) async throws -> Reply {
        var headers: HTTPFields = [.contentType: contentType]
        headers[HTTPField.Name("X-Amz-Target")!] = "AWSCognitoIdentityProviderService." + operation
        return try await client.execute(uri: "/", method: .post, headers: headers, body: ByteBuffer(bytes: input.serialized())) { response in
            Reply(status: response.status, headers: response.headers, bodyText: String(buffer: response.body))
        }
    }

    @Test func offByDefaultPostToTheRootIsNotServed() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            let reply = try await Self.call(client, "InitiateAuth", ["ClientId": "test-client"])
            #expect(reply.status == .notFound || reply.status == .methodNotAllowed, "\(reply.status)")
            #expect(reply.headers[HTTPField.Name("X-Amzn-ErrorType")!] == nil)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRotatedOutRefreshTokenReusedAfterTheGraceWindowEndsTheSession(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.cognitoAPI = true }
        try await app.router { client in
            let signedIn = try await client.signedIn(app, email: "rotate@example.com")
            let first = signedIn.string("refresh_token")
            let rotated = try await Self.call(client, "GetTokensFromRefreshToken", ["ClientId": "test-client", "RefreshToken": .string(first)])
            #expect(rotated.status == .ok, "\(rotated.bodyText)")
            let result = try #require(rotated["AuthenticationResult"]?.objectValue)
            let second = try #require(result["RefreshToken"]?.stringValue)
            #expect(second != first && result["ExpiresIn"]?.int64Value == 3600 && result["TokenType"]?.stringValue == "Bearer")
            #expect(result["NewDeviceMetadata"] == nil)
            // Within the grace window the old token gets the same successor (a lost response retried).
            let retried = try await Self.call(client, "GetTokensFromRefreshToken", ["ClientId": "test-client", "RefreshToken": .string(first)])
            #expect(retried["AuthenticationResult"]?.objectValue?["RefreshToken"]?.stringValue == second)
            app.clock.advance(by: 30)
            let reused = try await Self.call(
                client,
                "InitiateAuth",
                ["ClientId": "test-client", "AuthFlow": "REFRESH_TOKEN_AUTH", "AuthParameters": ["REFRESH_TOKEN": .string(first)]]
            )
            #expect(reused.status == .badRequest && reused.string("__type") == "NotAuthorizedException", "\(reused.bodyText)")
            #expect(reused.headers[HTTPField.Name("X-Amzn-ErrorType")!] == "NotAuthorizedException")
            // The reuse ended the session: its newest token is refused too, on both APIs.
            let newest = try await Self.call(client, "GetTokensFromRefreshToken", ["ClientId": "test-client", "RefreshToken": .string(second)])
            #expect(newest.string("__type") == "NotAuthorizedException")
            let native = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(second)])
            #expect(native.status == .unauthorized)
        }
    }

    @Test func secretBlocksFromAnotherClientOrTooOldAreRefusedLikeAWrongPassword() async throws {
        let app = try await TestApp.make { $0.cognitoAPI = true }
        try await app.router { client in
            _ = try await client.signedIn(app, email: "block@example.com")
            let publicA = CognitoSRPHex.hex([2])  // any valid A starts a challenge
            let started = try await Self.call(
                client,
                "InitiateAuth",
                [
                    "ClientId": "test-client", "AuthFlow": "USER_SRP_AUTH",
                    "AuthParameters": ["USERNAME": "block@example.com", "SRP_A": .string(publicA)],
                ]
            )
            let parameters = try #require(started["ChallengeParameters"]?.objectValue, "\(started.bodyText)")
            let block = try #require(parameters["SECRET_BLOCK"]?.stringValue)
            #expect(Data(base64Encoded: block) != nil, "standard base64")
            func respond(timestamp: String) async throws -> Reply {
                try await Self.call(
                    client,
                    "RespondToAuthChallenge",
                    [
                        "ClientId": "test-client", "ChallengeName": "PASSWORD_VERIFIER",
                        "ChallengeResponses": [
                            "USERNAME": parameters["USER_ID_FOR_SRP"]!, "TIMESTAMP": .string(timestamp),
                            "PASSWORD_CLAIM_SECRET_BLOCK": .string(block), "PASSWORD_CLAIM_SIGNATURE": "AAAA",
                        ],
                    ]
                )
            }
            // Six minutes later the block has expired: refused before any proof is checked.
            app.clock.advance(by: 360)
            let late = try await respond(timestamp: CognitoSRPTimestamp.format(app.clock.now()))
            #expect(late.string("__type") == "NotAuthorizedException" && late.string("message") == "Incorrect username or password.")
            // An unknown address gets a challenge shaped like a real one, the same salt on every try.
            func challenge(_ username: String) async throws -> [String: JSONValue] {
                let reply = try await Self.call(
                    client,
                    "InitiateAuth",
                    [
                        "ClientId": "test-client", "AuthFlow": "USER_SRP_AUTH",
                        "AuthParameters": ["USERNAME": .string(username), "SRP_A": .string(publicA)],
                    ]
                )
                return try #require(reply["ChallengeParameters"]?.objectValue, "\(reply.bodyText)")
            }
            let unknown = try await challenge("nobody@example.com")
            let again = try await challenge("nobody@example.com")
            #expect(unknown["SALT"] == again["SALT"] && unknown["USER_ID_FOR_SRP"] == again["USER_ID_FOR_SRP"])
            for salt in [unknown["SALT"], parameters["SALT"]] {
                // 16 random bytes as a padded-hex number: leading zero bytes drop out (1 salt in 256 is shorter).
                let count = salt?.stringValue?.count ?? 0
                #expect(count % 2 == 0 && (2...34).contains(count), "at most 16 bytes in padded hex, either way: \(count)")
            }
            // A block is bound to its app client.
            let otherClient = try await Self.call(
                client,
                "RespondToAuthChallenge",
                ["ClientId": "someone-else", "ChallengeName": "PASSWORD_VERIFIER"]
            )
            #expect(otherClient.string("__type") == "ResourceNotFoundException")
        }
    }
}
