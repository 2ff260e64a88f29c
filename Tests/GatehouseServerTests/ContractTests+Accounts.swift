import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// A user's sessions and email change (issue 29): the list, ending a session, the change and its
    /// code, with the refusals a client can provoke.
    static func exerciseAccountSessions(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let email = "sessions@example.com"
        let first = try await client.signedIn(app, email: email)
        let bearer = first.string("access_token")
        let browser: HTTPFields = [.userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"]
        let other = try await s.send(
            client,
            .post,
            "/auth/signin",
            json: ["email": .string(email), "password": "correct horse 9"],
            headers: browser
        )
        #expect(try await s.send(client, .get, "/me/sessions").status == .unauthorized)
        let list = try await s.send(client, .get, "/me/sessions", bearer: bearer)
        #expect(list.status == .ok && list.headers[.cacheControl] == "no-store")
        let sessions = (list["sessions"]?.arrayValue ?? []).compactMap(\.objectValue)
        #expect(sessions.count == 2 && sessions.filter { $0["current"] == .bool(true) }.count == 1)
        let firefox = try #require(sessions.first { $0["device"]?.stringValue == "Firefox on Linux" })
        let otherID = try #require(firefox["id"]?.stringValue)
        let template = "/me/sessions/{id}"
        #expect(try await s.send(client, .delete, "/me/sessions/\(otherID)", template: template).status == .unauthorized)
        #expect(try await s.send(client, .delete, "/me/sessions/\(otherID)", template: template, bearer: bearer).status == .noContent)
        #expect(try await s.send(client, .delete, "/me/sessions/\(otherID)", template: template, bearer: bearer).status == .notFound)
        #expect(try await s.send(client, .delete, "/me/sessions/nope", template: template, bearer: bearer).status == .notFound)
        #expect(try await s.send(client, .get, "/me", bearer: other.string("access_token")).status == .unauthorized)

        // The email change.
        let newEmail = "moved@example.com"
        #expect(try await s.send(client, .post, "/me/email", json: ["email": .string(newEmail)]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/me/email", json: ["email": 5], bearer: bearer).status == .badRequest)
        #expect(try await s.send(client, .post, "/me/email", raw: "{}", contentType: "text/plain", bearer: bearer).status == .unsupportedMediaType)
        let noPassword = try await s.send(client, .post, "/me/email", json: ["email": .string(newEmail)], bearer: bearer)
        #expect(noPassword.status == .forbidden && noPassword.errorCode == "reauthentication_required")
        let wrong = try await s.send(
            client,
            .post,
            "/me/email",
            json: ["email": .string(newEmail), "current_password": "wrong horse 9"],
            bearer: bearer
        )
        #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_credentials")
        let body: JSONValue = ["email": .string(newEmail), "current_password": "correct horse 9"]
        let started = try await s.send(client, .post, "/me/email", json: body, bearer: bearer)
        #expect(started.status == .ok && started["code_delivery"]?.objectValue?["destination"]?.stringValue == "m***@e***.com")
        #expect(try await s.send(client, .post, "/me/email", json: body, bearer: bearer).status == .tooManyRequests)
        let code = try #require(await app.mailer.latestCode(to: newEmail, kind: "confirm_email_change"))
        #expect(try await s.send(client, .post, "/me/email/verify", json: ["code": "000000"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/me/email/verify", json: .object([:]), bearer: bearer).status == .badRequest)
        let wrongCode = code == "000000" ? "111111" : "000000"
        #expect(try await s.send(client, .post, "/me/email/verify", json: ["code": .string(wrongCode)], bearer: bearer).status == .badRequest)
        let verified = try await s.send(client, .post, "/me/email/verify", json: ["code": .string(code)], bearer: bearer)
        #expect(verified.status == .ok && verified.string("email") == newEmail && verified["email_verified"] == .bool(true))

        // Ending one's own session is signing out.
        let mine = try #require(sessions.first { $0["current"] == .bool(true) }?["id"]?.stringValue)
        #expect(try await s.send(client, .delete, "/me/sessions/\(mine)", template: template, bearer: bearer).status == .noContent)
        #expect(try await s.send(client, .get, "/me/sessions", bearer: bearer).status == .unauthorized)
    }
}
