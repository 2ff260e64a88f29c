import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Passkeys without a server: the options the Apple layer needs decoded from WebAuthn's JSON, the response JSON built
/// from the authenticator's raw bytes, and the client's calls (``StubTransport``).
@Suite("Passkeys: options, response JSON and the client's calls")
struct PasskeyTests {
    static let challenge = Data((0..<32).map { UInt8($0) })  // base64url "AAECAwQF…Hh8"
    static let userHandle = Data("user-7f3a".utf8)
    static let credential = Data([0xFB, 0xFF, 0x01, 0x3E] + [UInt8](repeating: 0xAB, count: 12))

    /// What `POST /me/passkeys/options` answers (the server's shape).
    static var creationOptions: [String: Any] {
        [
            "rp": ["id": "example.com", "name": "Example"],
            "user": ["id": Base64URL.encode(userHandle), "name": "ann@example.com", "displayName": "Ann"],
            "challenge": Base64URL.encode(challenge),
            "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -8], ["type": "public-key", "alg": -257]],
            "timeout": 300_000,
            "excludeCredentials": [["type": "public-key", "id": Base64URL.encode(credential), "transports": ["internal"]]],
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
        ]
    }

    static var passkeyJSON: [String: Any] {
        [
            "id": Base64URL.encode(credential), "name": "iPhone", "created_at": "2026-11-23T10:00:00Z", "last_used_at": NSNull(),
            "transports": ["internal", "hybrid"], "backed_up": true, "flagged": false,
        ]
    }

    static func signedIn(_ transport: StubTransport) -> GatehouseClient {
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: .distantFuture)
        return GatehouseClient(configuration: .init(baseURL: base), store: InMemoryTokenStore(session), transport: transport)
    }

    @Test func base64URLDecodesWhatItEncodesAndNothingElse() {
        for count in 0..<40 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
        }
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]) && Base64URL.decode("-_8=") == Data([0xFB, 0xFF]))
        for bad in ["+/8", "ab cd", "a", "é", "AA==x"] { #expect(Base64URL.decode(bad) == nil, "\(bad)") }
    }

    @Test func registrationOptionsDecodeWhatTheSheetNeeds() throws {
        let json = StubTransport.json(Self.creationOptions)
        let options = try PasskeyRegistrationOptions(json: json)
        #expect(options.challenge == Self.challenge && options.userID == Self.userHandle && options.relyingPartyID == "example.com")
        #expect(options.userName == "ann@example.com" && options.userDisplayName == "Ann")
        #expect(options.excludedCredentialIDs == [Self.credential] && options.json == json, "the server's JSON is kept as it came")

        var none = Self.creationOptions
        none["excludeCredentials"] = nil
        #expect(try PasskeyRegistrationOptions(json: StubTransport.json(none)).excludedCredentialIDs.isEmpty)
        let invalidResponse: (String, [String: Any]) -> Void = { label, object in
            #expect(throws: GatehouseError.self, "\(label)") { try PasskeyRegistrationOptions(json: StubTransport.json(object)) }
        }
        var broken = Self.creationOptions
        broken["challenge"] = "not+base64url/"
        invalidResponse("challenge", broken)
        broken = Self.creationOptions
        broken["rp"] = ["name": "no id"]
        invalidResponse("rp.id", broken)
        broken = Self.creationOptions
        broken["user"] = ["name": "ann@example.com"]
        invalidResponse("user.id", broken)
        broken = Self.creationOptions
        broken["excludeCredentials"] = [["type": "public-key"]]
        invalidResponse("an id-less descriptor", broken)
        #expect(throws: GatehouseError.self) { try PasskeyRegistrationOptions(json: Data("<html>".utf8)) }
    }

    @Test func signInOptionsDecodeWithAndWithoutAllowedCredentials() throws {
        let discoverable: [String: Any] = ["challenge": Base64URL.encode(Self.challenge), "rpId": "example.com", "userVerification": "required"]
        let options = try PasskeySignInOptions(json: StubTransport.json(discoverable))
        #expect(options.challenge == Self.challenge && options.relyingPartyID == "example.com" && options.allowedCredentialIDs.isEmpty)
        var named = discoverable
        named["allowCredentials"] = [["type": "public-key", "id": Base64URL.encode(Self.credential), "transports": ["internal", "hybrid"]]]
        #expect(try PasskeySignInOptions(json: StubTransport.json(named)).allowedCredentialIDs == [Self.credential])
        named["allowCredentials"] = NSNull()
        #expect(try PasskeySignInOptions(json: StubTransport.json(named)).allowedCredentialIDs.isEmpty)
        named["rpId"] = nil
        #expect(throws: GatehouseError.self) { try PasskeySignInOptions(json: StubTransport.json(named)) }
    }

    @Test func theRegistrationResponseJSONIsWebAuthnsForm() throws {
        let registration = PasskeyRegistration(
            credentialID: Self.credential,
            clientDataJSON: Data(#"{"type":"webauthn.create"}"#.utf8),
            attestationObject: Data([0xA3, 0x63, 0x66, 0x6D, 0x74]),
            transports: ["internal", "hybrid"],
            authenticatorAttachment: "platform"
        )
        let expected: [String: Any] = [
            "id": "-_8BPqurq6urq6urq6urqw", "rawId": "-_8BPqurq6urq6urq6urqw", "type": "public-key",
            "response": [
                "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0", "attestationObject": "o2NmbXQ", "transports": ["internal", "hybrid"],
            ],
            "clientExtensionResults": [String: Any](), "authenticatorAttachment": "platform",
        ]
        #expect(try canonicalJSON(registration.responseJSON) == canonicalJSON(expected))
        let bare = PasskeyRegistration(credentialID: Self.credential, clientDataJSON: Data(), attestationObject: Data())
        #expect(
            bare.responseJSON["authenticatorAttachment"] == nil && (bare.responseJSON["response"] as? [String: Any])?["transports"] as? [String] == []
        )
        #expect(try PasskeyRegistration(responseJSON: registration.responseJSON) == registration, "the JSON carries every byte")
    }

    @Test func theAuthenticationResponseJSONIsWebAuthnsForm() throws {
        let assertion = PasskeyAssertion(
            credentialID: Self.credential,
            clientDataJSON: Data(#"{"type":"webauthn.get"}"#.utf8),
            authenticatorData: Data([0x49, 0x96, 0x0D, 0xE5]),
            signature: Data([0x30, 0x45, 0x02, 0x20]),
            userHandle: Self.userHandle
        )
        let expected: [String: Any] = [
            "id": "-_8BPqurq6urq6urq6urqw", "rawId": "-_8BPqurq6urq6urq6urqw", "type": "public-key",
            "response": [
                "clientDataJSON": "eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0", "authenticatorData": "SZYN5Q", "signature": "MEUCIA",
                "userHandle": "dXNlci03ZjNh",
            ],
            "clientExtensionResults": [String: Any](),
        ]
        #expect(try canonicalJSON(assertion.responseJSON) == canonicalJSON(expected))
        var anonymous = assertion
        anonymous.userHandle = Data()
        #expect((anonymous.responseJSON["response"] as? [String: Any])?["userHandle"] == nil, "an empty user handle is left out")
        #expect(try PasskeyAssertion(responseJSON: assertion.responseJSON) == assertion)
    }

    @Test func registrationPostsTheResponseWithItsNameAndListsAndDeletes() async throws {
        let transport = StubTransport { request in
            switch (request.httpMethod ?? "GET", request.url!.path) {
            case ("POST", "/me/passkeys/options"): return (200, [:], StubTransport.json(Self.creationOptions))
            case ("POST", "/me/passkeys"): return (201, [:], StubTransport.json(Self.passkeyJSON))
            case ("GET", "/me/passkeys"): return (200, [:], StubTransport.json(["passkeys": [Self.passkeyJSON]]))
            case ("DELETE", "/me/passkeys/\(Base64URL.encode(Self.credential))"): return (204, [:], Data())
            default: return (404, [:], StubTransport.error("not_found", "No such passkey."))
            }
        }
        let client = Self.signedIn(transport)
        let options = try await client.passkeyRegistrationOptions()
        #expect(options.relyingPartyID == "example.com")
        #expect(transport.requests(to: "/me/passkeys/options").first?.value(forHTTPHeaderField: "Authorization") == "Bearer a")

        let registration = PasskeyRegistration(credentialID: Self.credential, clientDataJSON: Data("{}".utf8), attestationObject: Data([1]))
        let passkey = try await client.registerPasskey(registration, name: "iPhone")
        #expect(passkey.id == Base64URL.encode(Self.credential) && passkey.name == "iPhone" && passkey.lastUsedAt == nil)
        #expect(passkey.backedUp && !passkey.flagged && passkey.transports == ["internal", "hybrid"])
        #expect(abs(passkey.createdAt.timeIntervalSince1970 - 1_795_428_000) < 0.001)
        var sent = try #require(transport.requests(to: "/me/passkeys").first { $0.httpMethod == "POST" }).jsonBody
        #expect(sent.removeValue(forKey: "name") as? String == "iPhone")
        #expect(try canonicalJSON(sent) == canonicalJSON(registration.responseJSON), "the body is the response JSON plus the name")

        #expect(try await client.passkeys() == [passkey])
        try await client.deletePasskey(id: passkey.id)
        #expect(transport.requests.last?.httpMethod == "DELETE" && transport.requests.last?.httpBody == nil)
        let count = transport.requests.count
        for bad in ["../../me", "", "a/b", "x y"] {
            await expectError(.notFound) { try await client.deletePasskey(id: bad) }
        }
        #expect(transport.requests.count == count, "an id that is not base64url is never sent (`..` would reach DELETE /me)")
    }

    @Test func signingInWithAPasskeyStoresThePasskeySession() async throws {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/passkey/options":
                return (200, [:], StubTransport.json(["challenge": Base64URL.encode(Self.challenge), "rpId": "example.com"]))
            case "/auth/passkey/signin": return (200, [:], StubTransport.tokens("pk"))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: transport)
        _ = try await client.passkeySignInOptions()
        _ = try await client.passkeySignInOptions(email: "ann@example.com")
        let bodies = transport.requests(to: "/auth/passkey/options").map { $0.jsonBody as? [String: String] }
        #expect(bodies == [[:], ["email": "ann@example.com"]], "a JSON object either way")
        #expect(transport.requests(to: "/auth/passkey/options").allSatisfy { $0.value(forHTTPHeaderField: "Authorization") == nil })

        var events = client.events.makeAsyncIterator()
        let assertion = PasskeyAssertion(
            credentialID: Self.credential,
            clientDataJSON: Data("{}".utf8),
            authenticatorData: Data([1]),
            signature: Data([2])
        )
        let result = try await client.signInWithPasskey(assertion)
        #expect(result.session.accessToken == "access-pk" && result.session.signInMethod == .passkey)
        #expect(client.currentSession == result.session)
        #expect(await events.next() == .signedIn)
        let sent = try #require(transport.requests(to: "/auth/passkey/signin").first).jsonBody
        #expect(try canonicalJSON(sent) == canonicalJSON(assertion.responseJSON))
    }

    @Test func aCancelledSheetHasWordsButIsNotAFailure() {
        #expect(PasskeyAuthorizationError.cancelled.localizedDescription == "Cancelled.")
        #expect(PasskeyAuthorizationError.failed("Application is not associated with domain").errorDescription?.contains("domain") == false)
    }
}
