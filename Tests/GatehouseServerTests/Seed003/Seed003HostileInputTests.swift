import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// The seed 003 (Hero365) API refuses what it must, with the contract's envelope and codes, and is
/// absent unless `GATEHOUSE_COMPAT_API_V1` turns it on.
@Suite("Seed 003 (Hero365): hostile input and the GATEHOUSE_COMPAT_API_V1 setting", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct Seed003HostileInputTests {
    typealias Seed = Seed003Client

    static let paths: [(HTTPRequest.Method, String)] = [
        (.post, "/api/v1/auth/apple/signin"), (.post, "/api/v1/auth/google/signin"), (.post, "/api/v1/auth/signup"),
        (.post, "/api/v1/auth/signin"), (.post, "/api/v1/auth/refresh"), (.get, "/api/v1/users/me"),
        (.post, "/api/v1/auth/otp/send"), (.post, "/api/v1/auth/otp/verify"),
    ]

    /// An answer in the contract's error envelope with `code`.
    static func refused(_ reply: Reply, _ status: HTTPResponse.Status, _ code: String) -> Bool {
        reply.status == status && reply.errorCode == code && reply.object["error"]?.objectValue?["message"]?.stringValue != nil
    }

    @Test func aUserIdentifierThatIsNotTheTokensSubIsInvalidToken() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Seed003ContractTests.app(issuer)
            try await app.live { client in
                let token = issuer.token(.apple, audience: Clients.appleBundle, subject: "000123.real.1234", email: "v@privaterelay.appleid.com")
                let request = Seed.AppleSignInRequest(id_token: token, user_identifier: "000999.other.9999", email: nil, full_name: "Mallory")
                let reply = try await Seed003ContractTests.post(client, "/api/v1/auth/apple/signin", request)
                #expect(Self.refused(reply, .unauthorized, "invalid_token"), "\(reply.bodyText)")
                #expect(!reply.bodyText.contains("000123.real.1234") && !reply.bodyText.contains(token))
                #expect(
                    try await client.send(.post, "/api/v1/auth/apple/signin", json: ["id_token": .string(token), "user_identifier": ""]).status
                        == .badRequest
                )
                // No account was created by the refused attempt: the real owner is new.
                let owner = try await client.send(
                    .post,
                    "/api/v1/auth/apple/signin",
                    json: ["id_token": .string(token), "user_identifier": "000123.real.1234"]
                )
                #expect(try Seed003ContractTests.decode(Seed.OAuthSignInResponse.self, owner).is_new_user)
            }
        }
    }

    /// The seed's app sends `fullName?.formatted()`, which is `""` when Apple gives no name (every
    /// sign-in after the first): that is no name, not a malformed body. (Found in review: 400 before.)
    @Test func emptyNamesFromTheSeedsAppMeanNoName() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Seed003ContractTests.app(issuer)
            try await app.live { client in
                let apple = issuer.token(.apple, audience: Clients.appleBundle, subject: "000123.empty.1", email: "e@privaterelay.appleid.com")
                let first = Seed.AppleSignInRequest(id_token: apple, user_identifier: "000123.empty.1", email: nil, full_name: "Ann Apple")
                #expect(try await Seed003ContractTests.post(client, "/api/v1/auth/apple/signin", first).status == .ok)
                let again = Seed.AppleSignInRequest(id_token: apple, user_identifier: "000123.empty.1", email: nil, full_name: "")
                let reply = try await Seed003ContractTests.post(client, "/api/v1/auth/apple/signin", again)
                let answer = try Seed003ContractTests.decode(Seed.OAuthSignInResponse.self, reply)
                #expect(answer.user.full_name == "Ann Apple", "the empty name replaced nothing")

                let google = issuer.token(.google, audience: Clients.googleWeb, subject: "g-empty", email: "ge@gmail.com")
                let empty = Seed.GoogleSignInRequest(
                    id_token: google,
                    access_token: nil,
                    email: nil,
                    full_name: "",
                    given_name: "Gil",
                    family_name: "",
                    picture_url: nil
                )
                let googleReply = try await Seed003ContractTests.post(client, "/api/v1/auth/google/signin", empty)
                #expect(try Seed003ContractTests.decode(Seed.OAuthSignInResponse.self, googleReply).user.full_name == "Gil")
                // Still strings only, and still bounded.
                #expect(
                    try await client.send(.post, "/api/v1/auth/apple/signin", json: ["id_token": .string(apple), "full_name": .number(1)]).status
                        == .badRequest
                )
                let long = String(repeating: "n", count: 1024 + 1)  // the document's maxLength for the name hints, plus one
                #expect(
                    try await client.send(.post, "/api/v1/auth/google/signin", json: ["id_token": .string(google), "given_name": .string(long)])
                        .status == .badRequest
                )
            }
        }
    }

    @Test func malformedIllTypedAndOversizedBodiesAreRefused() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await TestApp.social(issuer: issuer) {
                $0.compatAPIV1 = true
                $0.maxBodySize = 4096
            }.0
            try await app.live { client in
                let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-h", email: "h@gmail.com")
                for (_, path) in Self.paths where path != "/api/v1/users/me" {
                    #expect(Self.refused(try await client.send(.post, path, raw: "{"), .badRequest, "invalid_request"), "\(path)")
                    #expect(Self.refused(try await client.send(.post, path, raw: "[]"), .badRequest, "invalid_request"), "\(path)")
                    #expect(
                        Self.refused(
                            try await client.send(.post, path, raw: "{}", contentType: "text/plain"),
                            .unsupportedMediaType,
                            "unsupported_media_type"
                        )
                    )
                    let big = #"{"id_token":""# + String(repeating: "x", count: 8192) + #""}"#
                    #expect(Self.refused(try await client.send(.post, path, raw: big), .contentTooLarge, "payload_too_large"), "\(path)")
                }
                let apple = "/api/v1/auth/apple/signin"
                let google = "/api/v1/auth/google/signin"
                var ill: [(String, JSONValue)] = []
                ill.append((apple, ["id_token": 1]))
                ill.append((apple, ["id_token": "x", "user_identifier": 5]))
                ill.append((apple, ["user_identifier": "abc"]))
                ill.append((google, ["id_token": .array([])]))
                ill.append((google, ["id_token": .string(token), "given_name": false]))
                ill.append(("/api/v1/auth/signup", ["email": "not-an-address", "password": "correct horse 9"]))
                ill.append(("/api/v1/auth/signin", ["email": "a@example.com"]))
                ill.append(("/api/v1/auth/refresh", ["refresh_token": .null]))
                ill.append(("/api/v1/auth/otp/send", ["phone": 14_155_550_123]))
                ill.append(("/api/v1/auth/otp/verify", ["phone": "+14155550123", "token": 123_456]))
                ill.append(("/api/v1/auth/otp/verify", ["phone": "+14155550123", "code": "123456", "token": "654321"]))
                for (path, body) in ill {
                    #expect(Self.refused(try await client.send(.post, path, json: body), .badRequest, "invalid_request"), "\(path) \(body)")
                }
                let duplicate = #"{"id_token":"a","id_token":"b"}"#
                #expect(Self.refused(try await client.send(.post, "/api/v1/auth/google/signin", raw: duplicate), .badRequest, "invalid_request"))
                let longIdentifier = String(repeating: "u", count: 257)
                let long = try await client.send(
                    .post,
                    "/api/v1/auth/apple/signin",
                    json: ["id_token": "x", "user_identifier": .string(longIdentifier)]
                )
                #expect(Self.refused(long, .badRequest, "invalid_request"))
                #expect(
                    Self.refused(
                        try await client.send(.post, "/api/v1/auth/google/signin", json: ["id_token": "garbage"]),
                        .unauthorized,
                        "invalid_token"
                    )
                )
                let weak = try await client.send(.post, "/api/v1/auth/signup", json: ["email": "w@example.com", "password": "short"])
                #expect(Self.refused(weak, .badRequest, "invalid_password"))
            }
        }
    }

    @Test func theUserNeedsAnAccessToken() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Seed003ContractTests.app(issuer)
            try await app.live { client in
                let none = try await client.send(.get, "/api/v1/users/me")
                #expect(Self.refused(none, .unauthorized, "unauthorized") && none.headers[.wwwAuthenticate] != nil)
                #expect(Self.refused(try await client.send(.get, "/api/v1/users/me", bearer: "garbage"), .unauthorized, "unauthorized"))
                let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-me", email: "me@gmail.com")
                let signIn = try await client.send(.post, "/api/v1/auth/google/signin", json: ["id_token": .string(token)])
                let idToken = signIn.string("id_token")
                #expect(Self.refused(try await client.send(.get, "/api/v1/users/me", bearer: idToken), .unauthorized, "unauthorized"))
                let wrongMethod = try await client.send(.post, "/api/v1/users/me", json: .object([:]))
                #expect(wrongMethod.status == .methodNotAllowed)
            }
        }
    }

    @Test func theRoutesAreAbsentWhenTheSettingIsOff() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await TestApp.social(issuer: issuer).0
            try await app.live { client in
                let token = issuer.token(.google, audience: Clients.googleWeb, subject: "g-off", email: "off@gmail.com")
                for (method, path) in Self.paths {
                    let reply = try await client.send(method, path, json: method == .post ? ["id_token": .string(token)] : nil)
                    #expect(Self.refused(reply, .notFound, "not_found"), "\(path): \(reply.status)")
                }
                let served = app.built.routes.all
                #expect(!served.contains { $0.path.hasPrefix("/api/") })
            }
        }
    }

    @Test func phoneSignInAnswers403WhileNoCountryIsAllowed() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Seed003ContractTests.app(issuer)
            try await app.live { client in
                let send = try await client.send(.post, "/api/v1/auth/otp/send", json: ["phone": "+15555550100"])
                #expect(Self.refused(send, .forbidden, "provider_disabled"))
                let verify = try await client.send(.post, "/api/v1/auth/otp/verify", json: ["phone": "+15555550100", "code": "123456"])
                #expect(Self.refused(verify, .forbidden, "provider_disabled"))
            }
        }
    }

    @Test func theSettingIsReadFromTheEnvironmentOffByDefault() throws {
        #expect(try GatehouseConfiguration.fromEnvironment([:]).compatAPIV1 == false)
        #expect(try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_COMPAT_API_V1": "true"]).compatAPIV1)
        #expect(try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_COMPAT_API_V1": "false"]).compatAPIV1 == false)
        #expect(throws: ConfigurationError.self) { try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_COMPAT_API_V1": "maybe"]) }
    }

    @Test func theDoctorSaysWhenTheCompatibilityAPIIsOn() async throws {
        var c = GatehouseConfiguration()
        c.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        let off = await Doctor.run(configuration: c, logger: Logger(label: "doctor-test"))
        #expect(off.finding("compat.api-v1") == nil)
        c.compatAPIV1 = true
        let on = await Doctor.run(configuration: c, logger: Logger(label: "doctor-test"))
        #expect(on.finding("compat.api-v1")?.severity == .ok, "\(on.rendered)")
        #expect(on.finding("compat.api-v1")?.summary.contains("answers 403 until GATEHOUSE_SMS_COUNTRIES is set") == true)
    }
}
