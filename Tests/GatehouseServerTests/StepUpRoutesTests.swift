import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Step-up over HTTP: a session made by SMS alone on an account with a password answers 403
/// `reauthentication_required` to `DELETE /me` and `POST /me/phone`, and the account's
/// `current_password` in the (optional) body stands in for a new sign-in; a body without it, or no
/// body at all, is what the seeds' clients send and keeps working for a strong session.
@Suite("Routes: step-up for sensitive actions", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct StepUpRoutesTests {
    static let number = "+447700900123"

    @Test(arguments: TestDatabase.available)
    func anSMSSessionNeedsThePasswordToDeleteOrMoveTheAccount(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.smsCountries = PhoneFlowTests.countries }
        try await app.live { client in
            let password = try await client.signedIn(app, email: "step@example.com").string("access_token")
            let added = try await client.send(.post, "/me/phone", json: ["phone": .string(Self.number)], bearer: password)
            #expect(added.status == .ok, "a password session adds a number as before")
            let link = try #require(await app.texts.latestCode(to: Self.number))
            let verified = try await client.send(
                .post,
                "/me/phone/verify",
                json: ["phone": .string(Self.number), "code": .string(link)],
                bearer: password
            )
            #expect(verified.status == .ok)
            app.clock.advance(by: 61)
            _ = try await client.send(.post, "/auth/phone/send", json: ["phone": .string(Self.number)])
            let code = try #require(await app.texts.latestCode(to: Self.number))
            let sms = try await client.send(.post, "/auth/phone/verify", json: ["phone": .string(Self.number), "code": .string(code)])
                .string("access_token")
            app.clock.advance(by: 61)

            let move = try await client.send(.post, "/me/phone", json: ["phone": "+447700900124"], bearer: sms)
            #expect(move.status == .forbidden && move.errorCode == "reauthentication_required", "\(move.bodyText)")
            for body in [nil, "{}"] as [String?] {
                let delete = try await client.send(.delete, "/me", raw: body, bearer: sms)
                #expect(delete.status == .forbidden && delete.errorCode == "reauthentication_required", "\(body ?? "no body"): \(delete.bodyText)")
            }
            let hostile: [(String, String?, HTTPResponse.Status)] = [
                (#"{"current_password": 5}"#, "application/json", .badRequest),
                (#"{"current_password": "a", "current_password": "b"}"#, "application/json", .badRequest),
                ("current_password=x", "text/plain", .unsupportedMediaType),
                (#"{"current_password": "wrong horse 9"}"#, "application/json", .unauthorized),
            ]
            for (body, type, status) in hostile {
                let reply = try await client.send(.delete, "/me", raw: body, contentType: type, bearer: sms)
                #expect(reply.status == status, "\(body): \(reply.bodyText)")
            }
            #expect(try await client.send(.get, "/me", bearer: sms).status == .ok, "nothing was deleted")
            let moved = try await client.send(
                .post,
                "/me/phone",
                json: ["phone": "+447700900124", "current_password": "correct horse 9"],
                bearer: sms
            )
            #expect(moved.status == .ok)
            let deleted = try await client.send(.delete, "/me", json: ["current_password": "correct horse 9"], bearer: sms)
            #expect(deleted.status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: password).status == .unauthorized)
        }
    }

    /// The seeds' clients delete with no body, some with a JSON `Content-Type` on every request: both
    /// work for a strong session.
    @Test func aStrongSessionDeletesWithNoBodyWhateverTheContentType() async throws {
        let app = try await TestApp.make()
        try await app.live { client in
            for (index, type) in [nil, "application/json"].enumerated() {
                let bearer = try await client.signedIn(app, email: "plain\(index)@example.com").string("access_token")
                let deleted = try await client.send(.delete, "/me", raw: type == nil ? nil : "", contentType: type, bearer: bearer)
                #expect(deleted.status == .noContent, "\(type ?? "no Content-Type"): \(deleted.bodyText)")
            }
        }
    }

    @Test func theSettingIsReadAndBounded() throws {
        #expect(try GatehouseConfiguration.fromEnvironment([:]).stepUpMaxAge == nil)
        #expect(try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_STEP_UP_MAX_AGE": "900"]).stepUpMaxAge == 900)
        for bad in ["0", "59", "abc", "99999999"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_STEP_UP_MAX_AGE": bad]) }
        }
    }
}
