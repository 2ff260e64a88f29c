import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// `gatehouse users superuser` (issue 16: `is_superuser` is false unless an operator made the user one):
/// the flag is set and cleared outside the server, found by sub or by email, shown by the seed 003 API,
/// and never settable by a request.
@Suite("Operators: superusers (gatehouse users superuser)")
struct UserAdministrationTests {
    /// The command line's configuration: the app's SQLite file.
    static func cli(_ app: TestApp) -> GatehouseConfiguration {
        var cli = GatehouseConfiguration()
        cli.databaseURL = "sqlite://" + app.directory.appendingPathComponent("test.sqlite").path
        cli.dataDirectory = app.directory.path
        return cli
    }

    @Test func anOperatorMakesAUserASuperuserAndTakesItBack() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Seed003ContractTests.app(issuer)
            let cli = Self.cli(app)
            try await app.live { client in
                let token = issuer.token(.google, audience: Clients.googleIOS, subject: "g-op", email: "Op.Erator@gmail.com")
                let signedIn = try await client.send(.post, "/api/v1/auth/google/signin", json: ["id_token": .string(token)])
                let bearer = signedIn.string("access_token")
                let me = { try await client.send(.get, "/api/v1/users/me", bearer: bearer) }
                #expect(try await me()["is_superuser"] == .bool(false))
                // A request cannot set it.
                let patched = try await client.send(.patch, "/me", json: ["is_superuser": true, "full_name": "Op"], bearer: bearer)
                #expect(patched.status == .ok)
                app.clock.advance(by: 6)  // past the profile cache (5 s)
                #expect(try await me()["is_superuser"] == .bool(false))

                let line = try await UserAdministration.setSuperuser("op.erator@GMAIL.com", on: true, configuration: cli, logger: .init(label: "cli"))
                #expect(line.contains("is now a superuser"), "\(line)")
                app.clock.advance(by: 6)
                let after = try await me()
                #expect(after["is_superuser"] == .bool(true) && after["full_name"] == "Op", "nothing else changed")
                _ = try await UserAdministration.setSuperuser(after.string("id"), on: false, configuration: cli, logger: .init(label: "cli"))
                app.clock.advance(by: 6)
                #expect(try await me()["is_superuser"] == .bool(false))
            }
        }
    }

    @Test func anUnknownUserIsAClearErrorAndChangesNothing() async throws {
        let app = try await TestApp.make()
        let cli = Self.cli(app)
        try await app.live { _ in
            for who in ["no-such-sub", "nobody@example.com"] {
                do {
                    _ = try await UserAdministration.setSuperuser(who, on: true, configuration: cli, logger: .init(label: "cli"))
                    Issue.record("\(who) was found")
                } catch let error as ConfigurationError {
                    #expect(error.message.contains("No profile"), "\(error.message)")
                }
            }
        }
    }
}
