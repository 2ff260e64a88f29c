import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Cognito's choice-based sign-in (`USER_AUTH`, `SELECT_CHALLENGE`): boto3, pycognito's SRP and the
/// software passkey authenticator over a real socket on each store (`Scripts/cognito_user_auth.py`), and
/// at the router what the script cannot wait for or configure (a session's lifetime, the choices without
/// passkeys).
@Suite("Cognito API: USER_AUTH's choice, with boto3, pycognito and a passkey", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CognitoUserAuthTests {
    static let poolID = "us-east-1_GhChoice1"

    @Test(arguments: TestDatabase.available)
    func everyAnswerAndEveryRefusalWithRealClients(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, realTime: true, mail: .configured) { c in
            c.cognitoAPI = true
            c.poolID = Self.poolID
            c.passkeys.rpID = "gatehouse.test"
            // The script signs in, rightly and wrongly, far more often than a person would.
            let generous = RateLimitRule(name: "client", freeAttempts: 10_000, window: 3600, baseBlock: 1, maxBlock: 1)
            c.pool.rateLimits.signInPerClient = generous
            c.pool.rateLimits.signInPerAccount = generous
            c.pool.rateLimits.exchangePerClient = generous
            c.pool.rateLimits.codePerClient = generous
            c.pool.rateLimits.mailPerClient = generous
        }
        let outbox = app.directory.appendingPathComponent("outbox").path
        try await app.live { client in
            let port = try #require(client.port)
            guard
                let result = try await PythonScript.run(
                    "cognito_user_auth.py",
                    arguments: [
                        "--endpoint", "http://127.0.0.1:\(port)", "--client-id", "test-client", "--pool-id", Self.poolID, "--outbox", outbox,
                        "--origin", "http://gatehouse.test",
                    ],
                    requiring: "pycognito"
                )
            else { return }
            #expect(result.status == 0 && result.output.contains("ALL OK"), "\(result.output)")
        }
    }

    @Test func aSessionLivesThreeMinutesAndWithoutPasskeysTheChoiceIsThePasswordsAlone() async throws {
        let app = try await TestApp.make { $0.cognitoAPI = true }
        try await app.router { client in
            _ = try await client.signedIn(app, email: "late@example.com")
            func start(_ preferred: String?) async throws -> Reply {
                var parameters: [String: JSONValue] = ["USERNAME": "late@example.com"]
                if let preferred { parameters["PREFERRED_CHALLENGE"] = .string(preferred) }
                return try await CognitoAPIRoutesTests.call(
                    client,
                    "InitiateAuth",
                    ["ClientId": "test-client", "AuthFlow": "USER_AUTH", "AuthParameters": .object(parameters)]
                )
            }
            // Passkeys off: WEB_AUTHN is not offered, and preferring it falls back to the choice.
            for preferred in [nil, "WEB_AUTHN"] {
                let offered = try await start(preferred)
                #expect(offered.string("ChallengeName") == "SELECT_CHALLENGE", "\(offered.bodyText)")
                #expect(offered["AvailableChallenges"] == ["PASSWORD", "PASSWORD_SRP"] || CognitoSRP.system == nil)
            }
            func answer(_ session: String, _ answer: String) async throws -> Reply {
                try await CognitoAPIRoutesTests.call(
                    client,
                    "RespondToAuthChallenge",
                    [
                        "ClientId": "test-client", "ChallengeName": "SELECT_CHALLENGE", "Session": .string(session),
                        "ChallengeResponses": ["USERNAME": "late@example.com", "ANSWER": .string(answer), "PASSWORD": "correct horse 9"],
                    ]
                )
            }
            let session = try await start(nil).string("Session")
            let notOffered = try await answer(session, "WEB_AUTHN")
            #expect(notOffered.string("__type") == "InvalidParameterException", "\(notOffered.bodyText)")
            app.clock.advance(by: 181)
            let late = try await answer(session, "PASSWORD")
            #expect(late.status == .badRequest && late.string("__type") == "NotAuthorizedException", "\(late.bodyText)")
            #expect(late.string("message") == "Invalid session for the user.")
            let fresh = try await answer(try await start(nil).string("Session"), "PASSWORD")
            #expect(fresh["AuthenticationResult"]?.objectValue?["AccessToken"] != nil, "\(fresh.bodyText)")
        }
    }
}
