import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// The authenticator app's code for `secret` now (the app's clock), as an app would show it.
    static func totp(_ secret: String, _ app: TestApp) throws -> String {
        let bytes = try #require(TOTP.base32Decode(secret))
        return TOTP.code(secret: bytes, step: TOTP.step(at: app.clock.now()))
    }

    /// The second factor: enrolment, the `mfa_required` sign-in and its second step, new recovery
    /// codes, removal, and the refusals a client can provoke.
    static func exerciseSecondFactor(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let email = "second@example.com"
        let bearer = try await client.signedIn(app, email: email).string("access_token")
        #expect(try await s.send(client, .post, "/me/mfa/totp").status == .unauthorized)
        #expect(try await s.send(client, .get, "/me/mfa").status == .unauthorized)
        let off = try await s.send(client, .get, "/me/mfa", bearer: bearer)
        #expect(
            off.status == .ok && off["totp_enabled"] == .bool(false) && off["totp_enabled_at"] == .null && off["recovery_codes_left"] == .number(0)
        )
        let enrolment = try await s.send(client, .post, "/me/mfa/totp", bearer: bearer)
        #expect(enrolment.status == .ok && enrolment.string("otpauth_uri").hasPrefix("otpauth://totp/"))
        let secret = enrolment.string("secret")
        #expect(try await s.send(client, .get, "/me/mfa", bearer: bearer)["totp_enabled"] == .bool(false), "a pending enrolment is no app yet")
        #expect(try await s.send(client, .post, "/me/mfa/totp/verify", json: ["code": "000000"], bearer: bearer).status == .badRequest)
        let confirmed = try await s.send(client, .post, "/me/mfa/totp/verify", json: ["code": .string(try totp(secret, app))], bearer: bearer)
        #expect(confirmed.status == .ok)
        let recovery = (confirmed["recovery_codes"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(recovery.count == 10)
        let on = try await s.send(client, .get, "/me/mfa", bearer: bearer)
        #expect(on["totp_enabled"] == .bool(true) && on["totp_enabled_at"]?.stringValue != nil && on["recovery_codes_left"] == .number(10))
        #expect(try await s.send(client, .post, "/me/mfa/totp", bearer: bearer).status == .conflict)
        #expect(try await s.send(client, .post, "/me/mfa/totp/verify", json: ["code": "123456"], bearer: bearer).status == .notFound)

        // A password alone no longer signs in: the second step does.
        let first = try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": "correct horse 9"])
        #expect(first.status == .forbidden && first.errorCode == "mfa_required")
        let token = try #require(first["error"]?.objectValue?["mfa_token"]?.stringValue)
        #expect(try await s.send(client, .post, "/auth/mfa/verify", json: ["mfa_token": .string(token), "code": "000000"]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/mfa/verify", json: ["mfa_token": "v1.forged", "code": "000000"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/auth/mfa/verify", json: ["mfa_token": .string(token)]).status == .badRequest)
        let second = try await s.send(client, .post, "/auth/mfa/verify", json: ["mfa_token": .string(token), "code": .string(recovery[0])])
        #expect(second.status == .ok)
        #expect(
            try await s.send(client, .post, "/auth/mfa/verify", json: ["mfa_token": .string(token), "code": .string(recovery[1])]).status
                == .unauthorized
        )

        #expect(try await s.send(client, .get, "/me/mfa", bearer: bearer)["recovery_codes_left"] == .number(9), "a used recovery code is not left")
        app.clock.advance(by: 30)
        let renewed = try await s.send(client, .post, "/me/mfa/recovery-codes", json: ["code": .string(try totp(secret, app))], bearer: bearer)
        #expect(renewed.status == .ok && renewed["recovery_codes"]?.arrayValue?.count == 10)
        #expect(try await s.send(client, .post, "/me/mfa/recovery-codes", json: ["code": "000000"], bearer: bearer).status == .badRequest)
        #expect(try await s.send(client, .delete, "/me/mfa/totp", json: ["code": "000000"], bearer: bearer).status == .badRequest)
        app.clock.advance(by: 30)
        #expect(
            try await s.send(client, .delete, "/me/mfa/totp", json: ["code": .string(try totp(secret, app))], bearer: bearer).status == .noContent
        )
        #expect(try await s.send(client, .delete, "/me/mfa/totp", json: ["code": "000000"], bearer: bearer).status == .notFound)
        let removed = try await s.send(client, .get, "/me/mfa", bearer: bearer)
        #expect(removed["totp_enabled"] == .bool(false) && removed["recovery_codes_left"] == .number(0))
        #expect(try await s.send(client, .post, "/me/mfa/recovery-codes", json: ["code": "000000"], bearer: bearer).status == .notFound)
    }
}
