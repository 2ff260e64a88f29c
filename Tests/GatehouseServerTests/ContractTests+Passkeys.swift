import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// The relying party and origin the contract app's passkeys use.
    static let passkeyRP = (id: "gatehouse.test", origin: "https://gatehouse.test")

    /// A credential with one member replaced (or removed, with `nil`).
    static func replacing(_ credential: JSONValue, _ member: String, with value: JSONValue?) -> JSONValue {
        var fields = credential.objectValue ?? [:]
        fields[member] = value
        return .object(fields)
    }

    /// A credential with one member of its `response` replaced (or removed, with `nil`).
    static func replacing(_ credential: JSONValue, response member: String, with value: JSONValue?) -> JSONValue {
        var response = credential.objectValue?["response"]?.objectValue ?? [:]
        response[member] = value
        return replacing(credential, "response", with: .object(response))
    }

    /// Passkeys: the two option routes, registration, the list, sign-in and removal, with a software
    /// passkey (``SoftPasskey``), and every refusal a client can provoke: the body reader's (the
    /// document's member types and limits, before any WebAuthn check runs) and the ceremonies'.
    static func exercisePasskeys(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let email = "passkey@example.com"
        let bearer = try await client.signedIn(app, email: email).string("access_token")
        var passkey = SoftPasskey(rpID: passkeyRP.id, origin: passkeyRP.origin)

        // Registration.
        #expect(try await s.send(client, .post, "/me/passkeys/options").status == .unauthorized)
        let creation = try await s.send(client, .post, "/me/passkeys/options", bearer: bearer)
        #expect(creation.status == .ok && creation["excludeCredentials"] == .array([]))
        let registration = passkey.registration(creation.json)
        #expect(try await s.send(client, .post, "/me/passkeys", json: registration).status == .unauthorized)
        let named = replacing(registration, "name", with: "Contract key")
        for (body, what) in [
            (replacing(named, "name", with: .string(String(repeating: "n", count: 257))), "a name over its maxLength"),
            (replacing(named, "name", with: 5), "a name that is not a string"),
            (replacing(named, "name", with: "tab\there"), "a name with a control character"),
            (replacing(named, "id", with: 5), "an id that is not a string"),
            (replacing(named, "id", with: .string(String(repeating: "A", count: 1365))), "an id over its maxLength"),
            (replacing(named, "rawId", with: nil), "no rawId"),
            (replacing(named, "rawId", with: .string(SoftPasskey(rpID: passkeyRP.id, origin: passkeyRP.origin).id)), "a rawId other than the id"),
            (replacing(named, "type", with: "password"), "a type other than public-key"),
            (replacing(named, "response", with: "x"), "a response that is not an object"),
            (replacing(named, response: "attestationObject", with: nil), "no attestation object"),
            (replacing(named, response: "attestationObject", with: .array([])), "an attestation object that is not a string"),
            (replacing(named, response: "attestationObject", with: "not base64url!"), "an attestation object that is not base64url"),
            (replacing(named, response: "attestationObject", with: "_w"), "an attestation object that is not CBOR"),
            (replacing(named, "authenticatorAttachment", with: .string(String(repeating: "p", count: 33))), "an attachment over its maxLength"),
            (replacing(named, "clientExtensionResults", with: "none"), "extension results that are not an object"),
        ] {
            let refused = try await s.send(client, .post, "/me/passkeys", json: body, bearer: bearer)
            #expect(refused.status == .badRequest && refused.errorCode == "invalid_request", "\(what): \(refused.status) \(refused.bodyText)")
        }
        #expect(try await s.send(client, .post, "/me/passkeys", raw: "{", bearer: bearer).status == .badRequest)
        #expect(try await s.send(client, .post, "/me/passkeys", raw: "{}", contentType: "text/plain", bearer: bearer).status == .unsupportedMediaType)
        let oversized = replacing(named, "clientExtensionResults", with: ["padding": .string(String(repeating: "x", count: 8192))])
        #expect(try await s.send(client, .post, "/me/passkeys", json: oversized, bearer: bearer).status == .contentTooLarge)
        let added = try await s.send(client, .post, "/me/passkeys", json: named, bearer: bearer)
        #expect(added.status == .created && added["name"] == "Contract key" && added["id"] == .string(passkey.id), "\(added.bodyText)")
        let replayed = try await s.send(client, .post, "/me/passkeys", json: named, bearer: bearer)
        #expect(replayed.status == .unauthorized && replayed.errorCode == "invalid_credentials", "a registration response sent twice")
        let again = try await s.send(client, .post, "/me/passkeys/options", bearer: bearer)
        #expect(again["excludeCredentials"]?.arrayValue?.count == 1)
        let twice = try await s.send(client, .post, "/me/passkeys", json: passkey.registration(again.json), bearer: bearer)
        #expect(twice.status == .conflict, "the same credential under a fresh challenge")
        #expect(try await s.send(client, .get, "/me/passkeys").status == .unauthorized)
        let listed = try await s.send(client, .get, "/me/passkeys", bearer: bearer)
        #expect(listed.status == .ok && listed["passkeys"]?.arrayValue?.count == 1)

        // Sign-in.
        #expect(try await s.send(client, .post, "/auth/passkey/options").status == .ok, "no body: discoverable credentials")
        let forAddress = try await s.send(client, .post, "/auth/passkey/options", json: ["email": .string(email)])
        #expect(forAddress.status == .ok && forAddress["allowCredentials"]?.arrayValue?.count == 1)
        #expect(try await s.send(client, .post, "/auth/passkey/options", json: ["email": 1]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/passkey/options", json: ["email": "not an address"]).status == .badRequest)
        let longEmail = String(repeating: "a", count: 250) + "@example.com"
        #expect(try await s.send(client, .post, "/auth/passkey/options", json: ["email": .string(longEmail)]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/passkey/options", raw: "[]").status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/passkey/options", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)
        let bigEmail = #"{"email":""# + String(repeating: "x", count: 8192) + #""}"#
        #expect(try await s.send(client, .post, "/auth/passkey/options", raw: bigEmail).status == .contentTooLarge)
        let request = try await s.send(client, .post, "/auth/passkey/options", json: .object([:]))
        #expect(request.status == .ok && request["allowCredentials"] == nil)
        let assertion = try passkey.assertion(request.json)
        for (body, what) in [
            (replacing(assertion, "id", with: "x"), "an id that is not a credential id"),
            (replacing(assertion, response: "signature", with: 1), "a signature that is not a string"),
            (replacing(assertion, response: "authenticatorData", with: nil), "no authenticator data"),
            (replacing(assertion, response: "userHandle", with: 7), "a user handle that is not a string"),
        ] {
            let refused = try await s.send(client, .post, "/auth/passkey/signin", json: body)
            #expect(refused.status == .badRequest && refused.errorCode == "invalid_request", "\(what): \(refused.status) \(refused.bodyText)")
        }
        #expect(try await s.send(client, .post, "/auth/passkey/signin", raw: "{").status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/passkey/signin", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)
        let bigAssertion = replacing(assertion, "clientExtensionResults", with: ["padding": .string(String(repeating: "x", count: 8192))])
        #expect(try await s.send(client, .post, "/auth/passkey/signin", json: bigAssertion).status == .contentTooLarge)
        let tokens = try await s.send(client, .post, "/auth/passkey/signin", json: assertion)
        #expect(tokens.status == .ok && !tokens.string("refresh_token").isEmpty, "\(tokens.bodyText)")
        let replay = try await s.send(client, .post, "/auth/passkey/signin", json: assertion)
        #expect(replay.status == .unauthorized && replay.errorCode == "invalid_credentials", "a replayed assertion stays refused")

        // Removal.
        let path = "/me/passkeys/\(passkey.id)"
        #expect(try await s.send(client, .delete, path, template: "/me/passkeys/{id}").status == .unauthorized)
        let unknown = "/me/passkeys/\(SoftPasskey(rpID: passkeyRP.id, origin: passkeyRP.origin).id)"
        #expect(try await s.send(client, .delete, unknown, template: "/me/passkeys/{id}", bearer: bearer).status == .notFound)
        #expect(try await s.send(client, .delete, path, template: "/me/passkeys/{id}", bearer: bearer).status == .noContent)
        #expect(try await s.send(client, .delete, path, template: "/me/passkeys/{id}", bearer: bearer).status == .notFound)
        let after = try await s.send(client, .post, "/auth/passkey/options", json: .object([:]))
        let removed = try await s.send(client, .post, "/auth/passkey/signin", json: try passkey.assertion(after.json))
        #expect(removed.status == .unauthorized, "a removed passkey signs no one in")
    }
}
