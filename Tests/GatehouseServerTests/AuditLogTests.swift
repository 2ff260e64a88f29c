import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import SQLKit
import Testing

@testable import GatehouseStore

/// The audit log (issue 29): a row exists exactly when its change committed (a failure injected after
/// the change and before the commit leaves neither), the users' own changes are recorded with who and
/// where, the command line acts on the same use cases as `cli`, retention prunes, and a disable on one
/// instance is refused by another within a second.
@Suite("Audit log: atomic rows, the command line, retention, instances", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AuditLogTests {
    /// Makes every UPDATE of `gh_sessions` fail (SQLite: a RAISE trigger; PostgreSQL: a trigger function).
    static func failSessionUpdates(_ store: SQLStore, _ database: TestDatabase) async throws {
        try await store.writeSQL { db in
            switch database {
            case .sqlite:
                try await db.raw("CREATE TRIGGER gh_test_fail BEFORE UPDATE ON gh_sessions BEGIN SELECT RAISE(ABORT, 'injected'); END").run()
            case .postgres:
                try await db.raw("CREATE FUNCTION gh_test_fail() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'injected'; END $$ LANGUAGE plpgsql")
                    .run()
                try await db.raw("CREATE TRIGGER gh_test_fail BEFORE UPDATE ON gh_sessions FOR EACH ROW EXECUTE FUNCTION gh_test_fail()").run()
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRowExistsExactlyWhenItsChangeCommitted(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database)
        let administration = app.built.useCases.administration
        let store = app.built.store
        try await app.live { client in
            let key = try await administration.createKey(name: "atomic")
            let alice = try await client.signedIn(app)
            let sub = try #require(try await client.send(.get, "/me", bearer: alice.string("access_token"))["sub"]?.stringValue)
            func rows(_ event: AuditEvent) async throws -> [AuditEntry] {
                try await store.read { try await $0.auditEntries(AuditQuery(userID: sub, event: event)) }
            }
            #expect(try await rows(.signIn).count == 1)
            // Disabling writes the flag, its audit row, then ends the sessions: the last step fails.
            try await Self.failSessionUpdates(store, database)
            let failed = try await client.send(.post, "/admin/users/\(sub)/disable", bearer: key)
            #expect(failed.status == .internalServerError || failed.status == .serviceUnavailable, "\(failed.status)")
            #expect(try await rows(.userDisabled).isEmpty, "no row for a change that did not commit")
            #expect(try await store.read { try await $0.user(id: sub) }?.disabledAt == nil, "no change without its row")
            #expect(try await client.send(.get, "/me", bearer: alice.string("access_token")).status == .ok)
            // Signing out fails the same way: neither the end nor its row.
            let signOut = try await client.send(.post, "/auth/signout", json: ["refresh_token": .string(alice.string("refresh_token"))])
            #expect(signOut.status != .noContent)
            #expect(try await rows(.signOut).isEmpty)
            try await store.writeSQL { db in
                try await db.raw(database == .sqlite ? "DROP TRIGGER gh_test_fail" : "DROP TRIGGER gh_test_fail ON gh_sessions").run()
            }
            #expect(try await client.send(.post, "/admin/users/\(sub)/disable", bearer: key).status == .ok)
            #expect(try await rows(.userDisabled).count == 1)
            #expect(try await client.send(.get, "/me", bearer: alice.string("access_token")).status == .unauthorized)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aUsersOwnChangesAreRecordedWithWhoAndWhere(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database)
        let store = app.built.store
        try await app.live { client in
            let signedIn = try await client.send(
                .post,
                "/auth/signup",
                json: ["email": "dave@example.com", "password": "dave horse 99"],
                headers: [.userAgent: "AuditTest/1.0", .xRequestID: "req-audit-1"]
            )
            #expect(signedIn.status == .created)
            let dave = try await client.signedIn(app, email: "erin@example.com")
            let access = dave.string("access_token")
            let sub = try #require(try await client.send(.get, "/me", bearer: access)["sub"]?.stringValue)
            let change = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "correct horse 9", "new_password": "erin horse 77"],
                bearer: access,
                headers: [.userAgent: "AuditTest/2.0", .xRequestID: "req-audit-2"]
            )
            #expect(change.status == .noContent || change.status == .ok, "\(change.bodyText)")
            #expect(try await client.send(.post, "/auth/signout/all", bearer: access).status == .noContent)
            let wrong = try await client.send(.post, "/auth/signin", json: ["email": "erin@example.com", "password": "not it 12345"])
            #expect(wrong.status == .unauthorized)
            let entries = try await store.read { try await $0.auditEntries(AuditQuery(userID: sub)) }
            let changed = try #require(entries.first { $0.event == .passwordChanged })
            #expect(changed.actor == "user" && changed.userAgent == "AuditTest/2.0" && changed.requestID == "req-audit-2")
            #expect(changed.clientAddress == "127.0.0.1")
            #expect(entries.contains { $0.event == .signOutAll } && entries.contains { $0.event == .signIn && $0.detail == "password" })
            let failures = try await store.read { try await $0.auditEntries(AuditQuery(event: .signInFailed)) }
            #expect(failures.contains { $0.detail == "password:invalid_credentials" && $0.userID == nil })
            #expect(entries.allSatisfy { !($0.detail ?? "").contains("horse") })
        }
    }

    /// An email change and a session ended from the session list are recorded; the address asked for is not.
    @Test func anEmailChangeAndAnEndedDeviceAreRecorded() async throws {
        let app = try await TestApp.make()
        try await app.live { client in
            let first = try await client.signedIn(app, email: "gail@example.com")
            let second = try await client.send(.post, "/auth/signin", json: ["email": "gail@example.com", "password": "correct horse 9"])
            let access = second.string("access_token")
            let sub = try #require(try await client.send(.get, "/me", bearer: access)["sub"]?.stringValue)
            let asked = try await client.send(
                .post,
                "/me/email",
                json: ["email": "gail.new@example.com", "current_password": "correct horse 9"],
                bearer: access
            )
            #expect(asked.status == .ok || asked.status == .accepted, "\(asked.bodyText)")
            let code = try #require(await app.mailer.latestCode(to: "gail.new@example.com", kind: "confirm_email_change"))
            #expect(try await client.send(.post, "/me/email/verify", json: ["code": .string(code)], bearer: access).status == .ok)
            let sessions = try #require(try await client.send(.get, "/me/sessions", bearer: access)["sessions"]?.arrayValue)
            let other = try #require(sessions.compactMap(\.objectValue).first { $0["current"] == .bool(false) }?["id"]?.stringValue)
            #expect(try await client.send(.delete, "/me/sessions/\(other)", bearer: access).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: first.string("access_token")).status == .unauthorized)
            let entries = try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: sub)) }
            let events = Set(entries.map(\.event))
            #expect(events.isSuperset(of: [.emailChangeRequested, .emailChanged, .sessionEnded]), "\(events)")
            #expect(entries.first { $0.event == .sessionEnded }?.detail == other)
            #expect(entries.allSatisfy { !($0.detail ?? "").contains("gail.new") })
        }
    }

    /// `gatehouse users` and `gatehouse audit` run the same use cases on the same database, as `cli`.
    @Test func theCommandLineActsOnTheSameUseCases() async throws {
        let app = try await TestApp.make()
        try await app.live { client in
            let alice = try await client.signedIn(app)
            var cli = UserAdministrationTests.cli(app)
            cli.masterKey = nil
            let tool = try await buildApplication(configuration: cli, logger: .init(label: "cli"))
            let line = try await tool.administer { administration in
                let sub = try #require(try await administration.users(UserQuery(emailKey: "alice@example.com")).first?.id)
                _ = try await administration.updateUser(id: sub, UserChanges(disabled: true))
                return sub
            }
            // SQLite: the running server learns of the ended session when its liveness cache expires.
            app.clock.advance(by: 31)
            #expect(try await client.send(.get, "/me", bearer: alice.string("access_token")).status == .unauthorized)
            let entries = try await app.built.store.read { try await $0.auditEntries(AuditQuery(userID: line, event: .userDisabled)) }
            #expect(entries.first?.actor == "cli")
        }
    }

    @Test func retentionPrunesOldRows() async throws {
        try await TestDatabase.sqlite.withStore { store in
            let random = SystemRandomSource()
            let now = Date()
            try await store.write { tx in
                for days in [1, 89, 91, 400] {
                    let at = now.addingTimeInterval(-Double(days) * 86_400)
                    try await tx.appendAudit(.make(.signIn, userID: "u\(days)", origin: .system, at: at, random: random))
                }
            }
            let pruned = try await store.write { try await $0.pruneAudit(before: now.addingTimeInterval(-90 * 86_400)) }
            #expect(pruned == 2)
            let left = try await store.read { try await $0.auditEntries(AuditQuery()) }
            #expect(Set(left.compactMap(\.userID)) == ["u1", "u89"])
        }
    }

    @Test func aDisableOnOneInstanceIsRefusedByTheOtherWithinASecond() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (_, instances) = try await CrossInstanceInvalidationTests.instances(2)
        let (first, second) = (instances[0], instances[1])
        try await first.router { a in
            try await second.router { b in
                try await CrossInstanceInvalidationTests.waitForListening([first, second])
                let key = try await first.built.useCases.administration.createKey(name: "fleet")
                let tokens = try await a.signedIn(mailedBy: [first, second], email: "fleet@example.com")
                let access = tokens.string("access_token")
                let sub = try #require(try await b.send(.get, "/me", bearer: access)["sub"]?.stringValue)
                #expect(try await b.send(.get, "/me", bearer: access).status == .ok)
                #expect(try await a.send(.post, "/admin/users/\(sub)/disable", bearer: key).status == .ok)
                let ended = Date()
                var refused = false
                while Date().timeIntervalSince(ended) < 1, !refused {
                    refused = try await b.send(.get, "/me", bearer: access).status == .unauthorized
                    if !refused { try await Task.sleep(for: .milliseconds(5)) }
                }
                #expect(refused, "the other instance still served the disabled user's session after 1 s")
                let again = try await b.send(.post, "/auth/signin", json: ["email": "fleet@example.com", "password": "correct horse 9"])
                #expect(again.errorCode == "user_disabled")
            }
        }
    }
}
