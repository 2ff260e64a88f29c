import Crypto
import Foundation
import GatehouseInfrastructure
import GatehouseTesting
import Testing

@testable import GatehouseCore

@Suite("Tokens: issuing and verifying")
struct AccessTokenVerifierTests {
    let clock = TestClock()
    let keyring = FixedKeys.keyring()
    var service: TokenService {
        TokenService(
            settings: TokenSettings(issuer: "https://auth.example.com", clientID: "client-1"),
            keyring: keyring,
            clock: clock,
            random: SystemRandomSource()
        )
    }
    let subject = TokenSubject(sub: "11111111-2222-4333-8444-555555555555", email: "alice@example.com", emailVerified: true, name: "Alice")
    var session: SessionRecord {
        SessionRecord(id: "session-1", userID: subject.sub, method: "password", authTime: clock.now(), createdAt: clock.now())
    }

    func claims(of token: String) throws -> [String: JSONValue] { try CompactJWS(parsing: token).claims }
    func header(of token: String) throws -> [String: JSONValue] { try CompactJWS(parsing: token).header }

    @Test func aVerifiedPhoneNumberIsInTheIDTokenOnly() throws {
        var withPhone = subject
        withPhone.phone = "+447700900123"
        let issued = try service.issue(subject: withPhone, session: session, nonce: nil)
        let id = try claims(of: issued.idToken)
        #expect(id["phone_number"] == "+447700900123" && id["phone_number_verified"] == .bool(true))
        #expect(try claims(of: issued.accessToken)["phone_number"] == nil)
        let without = try claims(of: try service.issue(subject: subject, session: session, nonce: nil).idToken)
        #expect(without["phone_number"] == nil && without["phone_number_verified"] == nil)
    }

    @Test func issuesCognitoShapedTokens() throws {
        let issued = try service.issue(subject: subject, session: session, nonce: "n-hash")
        let id = try claims(of: issued.idToken)
        let access = try claims(of: issued.accessToken)
        #expect(try header(of: issued.idToken)["kid"] == .string("test-id-1"))
        #expect(try header(of: issued.accessToken)["kid"] == .string("test-access-1"))
        #expect(try header(of: issued.idToken)["alg"] == "RS256")
        #expect(id["token_use"] == "id" && id["aud"] == "client-1" && id["iss"] == "https://auth.example.com")
        #expect(id["email"] == "alice@example.com" && id["email_verified"] == .bool(true) && id["name"] == "Alice")
        #expect(id["cognito:username"] == .string(subject.sub) && id["nonce"] == "n-hash" && id["origin_jti"] == "session-1")
        #expect(access["token_use"] == "access" && access["client_id"] == "client-1" && access["aud"] == nil)
        #expect(access["username"] == .string(subject.sub) && access["scope"] == "openid email profile" && access["origin_jti"] == "session-1")
        for c in [id, access] {
            for name in ["iat", "exp", "auth_time"] { #expect(c[name]?.int64Value != nil, "\(name) must be whole seconds") }
            #expect(c["exp"]!.int64Value! - c["iat"]!.int64Value! == 3600)
            #expect(c["jti"]?.stringValue != nil)
        }
        #expect(id["jti"] != access["jti"])
        // Whole seconds on the wire, not 1.8e9 or fractions.
        let payload = String(decoding: Base64URL.decode(issued.accessToken.split(separator: ".")[1])!, as: UTF8.self)
        #expect(payload.contains("\"exp\":\(clock.now().epochSeconds + 3600)"))
    }

    @Test func verifiesItsOwnAccessTokens() throws {
        let issued = try service.issue(subject: subject, session: session, nonce: nil)
        let verified = try service.verifyAccessToken(issued.accessToken)
        #expect(verified.sub == subject.sub && verified.originJTI == "session-1" && verified.clientID == "client-1")
    }

    func forge(header: JSONValue, claims: JSONValue, key: SigningKey? = FixedKeys.accessKey) -> String {
        CompactJWS.encode(header: header, claims: claims) { input in key.map { try! $0.sign(input) } ?? [] }
    }

    var goodClaims: [String: JSONValue] {
        let now = clock.now().epochSeconds
        return [
            "sub": .string(subject.sub), "iss": "https://auth.example.com", "client_id": "client-1", "token_use": "access",
            "iat": .number(Double(now)), "exp": .number(Double(now + 600)), "origin_jti": "session-1", "username": .string(subject.sub),
        ]
    }

    func expectRefused(_ token: String, _ comment: Comment) {
        do {
            _ = try service.verifyAccessToken(token)
            Issue.record(comment)
        } catch {
            #expect(error.code == .unauthorized, comment)
            #expect(error.message == GatehouseError.unauthorized.message, "one body for every reason")
        }
    }

    @Test func acceptsAHandMadeGoodToken() throws {
        _ = try service.verifyAccessToken(forge(header: ["alg": "RS256", "kid": "test-access-1"], claims: .object(goodClaims)))
    }

    @Test func refusesForgedAndMisdirectedTokens() throws {
        let header: JSONValue = ["alg": "RS256", "kid": "test-access-1"]
        var c = goodClaims
        expectRefused(forge(header: header, claims: .object(c), key: FixedKeys.foreignKey), "signed by a stranger's key under our kid")
        expectRefused(forge(header: ["alg": "RS256", "kid": "test-id-1"], claims: .object(c), key: FixedKeys.idKey), "signed with the ID-token key")
        expectRefused(forge(header: ["alg": "RS256", "kid": "nope"], claims: .object(c)), "unknown kid")
        expectRefused(forge(header: ["alg": "RS256"], claims: .object(c)), "no kid")
        expectRefused(forge(header: ["alg": "none", "kid": "test-access-1"], claims: .object(c), key: nil) + "", "alg none")
        let none =
            Base64URL.encode(JSONValue.object(["alg": "none", "kid": "test-access-1"]).serialized()) + "."
            + Base64URL.encode(JSONValue.object(c).serialized()) + "."
        expectRefused(none, "alg none with empty signature")
        // HS256 keyed with the public key's bytes (the classic confusion attack).
        let pem = FixedKeys.accessKey.rsaPublicKey!.pemRepresentation
        let hs = CompactJWS.encode(header: ["alg": "HS256", "kid": "test-access-1"], claims: .object(c)) { input in
            Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Data(pem.utf8))))
        }
        expectRefused(hs, "HS256 confusion")
        expectRefused(forge(header: ["alg": "RS256", "kid": "test-access-1", "crit": ["exp"]], claims: .object(c)), "crit header")
        expectRefused(forge(header: ["alg": "RS256", "kid": "test-access-1", "jku": "https://evil.example/jwks"], claims: .object(c)), "jku header")
        expectRefused(forge(header: ["alg": "RS256", "kid": "test-access-1", "jwk": ["kty": "RSA"]], claims: .object(c)), "jwk header")

        c["iss"] = "https://evil.example.com"
        expectRefused(forge(header: header, claims: .object(c)), "wrong issuer")
        c = goodClaims
        c["client_id"] = "other-client"
        expectRefused(forge(header: header, claims: .object(c)), "wrong client")
        c = goodClaims
        c["aud"] = "client-1"
        expectRefused(forge(header: header, claims: .object(c)), "aud on an access token")
        c = goodClaims
        c["token_use"] = "id"
        expectRefused(forge(header: header, claims: .object(c)), "ID token at a protected endpoint")
        c = goodClaims
        c["exp"] = .number(Double(clock.now().epochSeconds - 61))
        expectRefused(forge(header: header, claims: .object(c)), "expired beyond leeway")
        c["exp"] = "tomorrow"
        expectRefused(forge(header: header, claims: .object(c)), "exp not a number")
        c = goodClaims
        c["nbf"] = .number(Double(clock.now().epochSeconds + 120))
        expectRefused(forge(header: header, claims: .object(c)), "not yet valid")
        c = goodClaims
        c["origin_jti"] = nil
        expectRefused(forge(header: header, claims: .object(c)), "no session")
        expectRefused("abc.def", "two segments")
        expectRefused("a.b.c.d", "four segments")
        expectRefused(String(repeating: "a", count: 20_000), "oversized")
    }

    @Test func toleratesSmallClockSkewOnly() throws {
        var c = goodClaims
        c["exp"] = .number(Double(clock.now().epochSeconds - 30))
        _ = try service.verifyAccessToken(forge(header: ["alg": "RS256", "kid": "test-access-1"], claims: .object(c)))
    }

    @Test func duplicateClaimNamesAreRefused() {
        let header = Base64URL.encode(Array(#"{"alg":"RS256","kid":"test-access-1"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"sub":"a","sub":"b"}"#.utf8))
        let input = header + "." + payload
        let token = input + "." + Base64URL.encode(try! FixedKeys.accessKey.sign(Array(input.utf8)))
        expectRefused(token, "duplicate claim")
    }

    @Test func publishesBothKeysInTheJWKS() throws {
        let jwks = try StrictJSONParser().parse(keyring.snapshot.jwks)
        let keys = try JWSKeySet.parseJWKS(keyring.snapshot.jwks)
        #expect(keys.contains(kid: "test-id-1") && keys.contains(kid: "test-access-1"))
        guard case .object(let doc) = jwks, case .array(let entries)? = doc["keys"] else {
            Issue.record("bad JWKS")
            return
        }
        for case .object(let key) in entries {
            #expect(key["kty"] == "RSA" && key["alg"] == "RS256" && key["use"] == "sig" && key["n"] != nil && key["e"] == "AQAB")
            #expect(key["d"] == nil && key["p"] == nil, "no private material")
        }
    }
}

@Suite("Refresh token codec")
struct RefreshTokenCodecTests {
    @Test func successorIsDeterministicAndDistinct() {
        let key = RefreshSuccessorKey(bytes: SystemRandomSource().bytes(32))
        let token = RefreshTokenCodec.generate(SystemRandomSource())
        #expect(RefreshTokenCodec.validate(token) == token)
        #expect(RefreshTokenCodec.successor(of: token, key: key) == RefreshTokenCodec.successor(of: token, key: key))
        #expect(RefreshTokenCodec.successor(of: token, key: key) != token)
        #expect(RefreshTokenCodec.validate(RefreshTokenCodec.successor(of: token, key: key)) != nil)
        #expect(RefreshTokenCodec.hash(token) != token && !RefreshTokenCodec.hash(token).contains(token))
    }

    /// The successor depends on the server's key, so holding a token is not enough to compute the
    /// ones after it (before, the successor was an HMAC keyed by the token alone).
    @Test func successorNeedsTheServersKey() {
        let token = RefreshTokenCodec.generate(SystemRandomSource())
        let mine = RefreshSuccessorKey(bytes: SystemRandomSource().bytes(32))
        let other = RefreshSuccessorKey(bytes: SystemRandomSource().bytes(32))
        #expect(RefreshTokenCodec.successor(of: token, key: mine) != RefreshTokenCodec.successor(of: token, key: other))
        #expect(RefreshTokenCodec.successor(of: token, key: mine) != RefreshChainAttack.successor(of: token))
    }

    @Test(arguments: [
        "", "ghr1.", "ghr1.abc", "xyz." + String(repeating: "A", count: 43), "ghr1." + String(repeating: "A", count: 500), "eyJhbGciOi.x.y",
    ])
    func refusesValuesThatCannotBeOurs(_ value: String) {
        #expect(RefreshTokenCodec.validate(value) == nil)
    }
}

@Suite("Secret box")
struct SecretBoxTests {
    @Test func sealsBoundToContext() throws {
        let box = try SecretBox(masterKey: Array(repeating: 7, count: 32))
        let sealed = try box.seal(Array("secret".utf8), context: "a")
        #expect(try box.open(sealed, context: "a") == Array("secret".utf8))
        #expect(throws: (any Error).self) { try box.open(sealed, context: "b") }
        let other = try SecretBox(masterKey: Array(repeating: 8, count: 32))
        #expect(throws: (any Error).self) { try other.open(sealed, context: "a") }
        #expect(box.keyCheck != other.keyCheck)
        #expect(box.keyedHash("x", "1") == box.keyedHash("x", "1") && box.keyedHash("x", "1") != box.keyedHash("x1"))
    }
}
