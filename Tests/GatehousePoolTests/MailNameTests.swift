import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import Testing

/// Mail to an address nobody has proven carries no text the requester chose: a sign-up `full_name` of
/// "Your account will be closed. Call +1-900-…" must not reach a stranger's inbox from the product's
/// own sender, on sign-up, resend, forgot or the reset notice. Once the address is confirmed, the
/// owner's own name greets them.
@Suite("Pool: no requester text in mail to an unproven address", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MailNameTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let lure = "Your account will be closed. Call +1-900-555-0100 or visit https://evil.example"

    @Test func anUnconfirmedAddressNeverSeesTheSignUpName() async throws {
        try await Self.apps.with { h in
            let email = "victim@example.com"
            _ = try await h.passwords.signUp(email: email, password: "correct horse 9", fullName: Self.lure, client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            _ = try await h.passwords.resendConfirmationCode(email: email, client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            _ = try await h.passwords.forgotPassword(email: email, client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            // A second sign-up for the same address: the notice goes to the address, again unproven.
            _ = try await h.passwords.signUp(email: email, password: "correct horse 9", fullName: "Other", client: h.client, logger: h.logger)
            let reset = try require(await h.mailer.latestCode(to: email, kind: "reset_password"))
            // The owner takes the address back with the reset code; the notice greets nobody either.
            try await h.passwords.resetPassword(email: email, code: reset, newPassword: "owner horse 10", client: h.client, logger: h.logger)
            let mails = await h.mailer.messages(to: email)
            #expect(Set(mails.map(\.kind)) == ["confirm_signup", "reset_password", "already_registered", "password_changed"], "\(mails.map(\.kind))")
            for mail in mails {
                #expect(!mail.body.contains("evil.example") && !mail.body.contains("900-555") && !mail.subject.contains("Call"), "\(mail.kind)")
                #expect(!(mail.html ?? "").contains("evil.example"), "\(mail.kind)")
            }
            // The stranger's name is gone with the take-over.
            let user = try await h.store.read { try await $0.user(emailKey: email) }
            #expect(user?.confirmed == true && user?.name == nil)
        }
    }

    @Test func aConfirmedOwnerIsGreetedByTheirOwnName() async throws {
        try await Self.apps.with { h in
            _ = try await h.confirmedUser("owner@example.com")
            h.clock.advance(by: 61)
            _ = try await h.passwords.forgotPassword(email: "owner@example.com", client: h.client, logger: h.logger)
            let mail = try require(await h.mailer.messages(to: "owner@example.com").last)
            #expect(mail.kind == "reset_password" && mail.body.hasPrefix("Hello Alice,"))
        }
    }
}
