import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseTesting
import Testing

@Suite("Pool: passwords and account deletion", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PasswordAndAccountTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    @Test func resetSetsThePasswordAndEndsEverySession() async throws {
        try await Self.apps.with { h in
            let old = try await h.confirmedUser()
            h.clock.advance(by: 61)
            let delivery = try await h.passwords.forgotPassword(email: "alice@example.com", client: h.client, logger: h.logger)
            #expect(delivery.destination == "a***@e***.com")
            let code = try require(await h.mailer.latestCode(to: "alice@example.com", kind: "reset_password"))
            await #expect {
                try await h.passwords.resetPassword(email: "alice@example.com", code: code, newPassword: "short", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidPassword
            }
            try await h.passwords.resetPassword(
                email: "alice@example.com",
                code: code,
                newPassword: "brand new pass 2",
                client: h.client,
                logger: h.logger
            )
            #expect(await h.mailer.all.last?.kind == "password_changed")
            await #expect { try await h.me(old) } throws: { GatehouseError.Code.of($0) == .unauthorized }
            await #expect { try await h.sessions.refresh(refreshToken: old.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
            await #expect {
                try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
            _ = try await h.passwords.signIn(email: "alice@example.com", password: "brand new pass 2", client: h.client, logger: h.logger)
            await #expect {
                try await h.passwords.resetPassword(
                    email: "alice@example.com",
                    code: code,
                    newPassword: "third pass 3",
                    client: h.client,
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .codeMismatch
            }
        }
    }

    @Test func resetClearsSignInBackOff() async throws {
        try await Self.apps.with { h in
            try await h.confirmedUser()
            for _ in 0..<7 {
                _ = try? await h.passwords.signIn(email: "alice@example.com", password: "wrong 12345", client: h.client, logger: h.logger)
            }
            await #expect {
                try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .tooManyRequests
            }
            h.clock.advance(by: 61)
            _ = try await h.passwords.forgotPassword(email: "alice@example.com", client: h.client, logger: h.logger)
            let code = try require(await h.mailer.latestCode(to: "alice@example.com", kind: "reset_password"))
            try await h.passwords.resetPassword(
                email: "alice@example.com",
                code: code,
                newPassword: "brand new pass 2",
                client: h.client,
                logger: h.logger
            )
            _ = try await h.passwords.signIn(
                email: "alice@example.com",
                password: "brand new pass 2",
                client: ClientInfo(address: "192.0.2.1"),
                logger: h.logger
            )
        }
    }

    @Test func resetTakesBackAnAccountSomeoneElseStarted() async throws {
        try await Self.apps.with { h in
            // An attacker signs up with the victim's address and never confirms.
            _ = try await h.passwords.signUp(
                email: "victim@example.com",
                password: "attacker pass 1",
                fullName: "Mallory",
                client: h.client,
                logger: h.logger
            )
            h.clock.advance(by: 61)
            _ = try await h.passwords.forgotPassword(email: "victim@example.com", client: h.client, logger: h.logger)
            let code = try require(await h.mailer.latestCode(to: "victim@example.com", kind: "reset_password"))
            try await h.passwords.resetPassword(
                email: "victim@example.com",
                code: code,
                newPassword: "victim pass 22",
                client: h.client,
                logger: h.logger
            )
            _ = try await h.passwords.signIn(email: "victim@example.com", password: "victim pass 22", client: h.client, logger: h.logger)
            await #expect {
                try await h.passwords.signIn(email: "victim@example.com", password: "attacker pass 1", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
        }
    }

    @Test func forgotForUnknownAddressesLooksTheSame() async throws {
        try await Self.apps.with { h in
            try await h.confirmedUser()
            h.clock.advance(by: 61)
            let known = try await h.passwords.forgotPassword(email: "alice@example.com", client: h.client, logger: h.logger)
            let unknown = try await h.passwords.forgotPassword(email: "zed@example.com", client: h.client, logger: h.logger)
            #expect(known.medium == unknown.medium)
            #expect(await h.mailer.messages(to: "zed@example.com").isEmpty)
            await #expect {
                try await h.passwords.resetPassword(
                    email: "zed@example.com",
                    code: "123456",
                    newPassword: "brand new pass 2",
                    client: h.client,
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .codeMismatch
            }
        }
    }

    @Test func changePasswordNeedsTheCurrentOneAndEndsOtherSessions() async throws {
        try await Self.apps.with { h in
            let here = try await h.confirmedUser()
            let elsewhere = try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            let principal = try await h.me(here)
            await #expect {
                try await h.passwords.changePassword(
                    principal: principal,
                    currentPassword: "nope nope 1",
                    newPassword: "brand new pass 2",
                    client: h.client,
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
            await #expect {
                try await h.passwords.changePassword(
                    principal: principal,
                    currentPassword: "correct horse 9",
                    newPassword: "weak",
                    client: h.client,
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .invalidPassword
            }
            try await h.passwords.changePassword(
                principal: principal,
                currentPassword: "correct horse 9",
                newPassword: "brand new pass 2",
                client: h.client,
                logger: h.logger
            )
            _ = try await h.me(here)
            await #expect { try await h.me(elsewhere) } throws: { GatehouseError.Code.of($0) == .unauthorized }
            _ = try await h.passwords.signIn(email: "alice@example.com", password: "brand new pass 2", client: h.client, logger: h.logger)
        }
    }

    @Test func deletingTheAccountRemovesEverything() async throws {
        try await Self.apps.with { h in
            let tokens = try await h.confirmedUser()
            let principal = try await h.me(tokens)
            let profiles = h.profiles
            let view = try await profiles.view(for: principal, logger: h.logger)
            #expect(view.profile.email == "alice@example.com" && view.profile.fullName == "Alice" && view.identities.map(\.provider) == ["password"])
            try await h.accounts.delete(for: principal, client: h.client, logger: h.logger)
            await #expect { try await h.me(tokens) } throws: { GatehouseError.Code.of($0) == .unauthorized }
            await #expect { try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
            let leftovers = try await h.store.read { tx in
                (
                    try await tx.user(id: principal.sub), try await tx.profile(sub: principal.sub), try await tx.identities(userID: principal.sub),
                    try await tx.activeSessionIDs(userID: principal.sub), try await tx.code(userID: principal.sub, purpose: .confirmSignUp)
                )
            }
            #expect(leftovers.0 == nil && leftovers.1 == nil && leftovers.2.isEmpty && leftovers.3.isEmpty && leftovers.4 == nil)
            // The address is free again.
            h.clock.advance(by: 61)
            _ = try await h.passwords.signUp(
                email: "alice@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            #expect(await h.mailer.all.last?.kind == "confirm_signup")
        }
    }

    @Test func profileIsCreatedOnceAndUpdatable() async throws {
        try await Self.apps.with { h in
            let tokens = try await h.confirmedUser()
            let principal = try await h.me(tokens)
            let profiles = h.profiles
            async let a = profiles.view(for: principal, logger: h.logger)
            async let b = profiles.view(for: principal, logger: h.logger)
            let (first, second) = try await (a, b)
            #expect(first.profile == second.profile)
            h.clock.advance(by: 10)
            let renamed = try await profiles.update(for: principal, fullName: .some("Alice Liddell"), logger: h.logger)
            #expect(renamed.profile.fullName == "Alice Liddell" && renamed.profile.updatedAt > first.profile.updatedAt)
            let refreshed = try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: h.client, logger: h.logger)
            let claims = try CompactJWS(parsing: refreshed.idToken).claims
            #expect(claims["name"] == "Alice Liddell", "new ID tokens carry the new name")
            let cleared = try await profiles.update(for: principal, fullName: .some(nil), logger: h.logger)
            #expect(cleared.profile.fullName == nil)
            let untouched = try await profiles.update(for: principal, fullName: .none, logger: h.logger)
            #expect(untouched.profile.fullName == nil)
        }
    }
}
