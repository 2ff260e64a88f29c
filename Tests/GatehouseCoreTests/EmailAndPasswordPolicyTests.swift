import Foundation
import Testing

@testable import GatehouseCore

@Suite("Email addresses")
struct EmailAddressTests {
    @Test(arguments: ["alice@example.com", "O'Brien+tag@Example.co.uk", "müller@exämple.de", "a.b-c_d@sub.domain.io", "x@y.museum", "a!#$%&'*+/=?^`{|}~z@example.com", "Z9@xn--bcher-kva.example"])
    func acceptsValidAddresses(_ raw: String) throws {
        let email = try EmailAddress(raw)
        #expect(email.value == raw)
        #expect(email.key == raw.lowercased())
    }

    @Test(arguments: [
        "", "plain", "@example.com", "alice@", "alice@example", "a@b@c.com", "alice@.example.com", "alice@example..com",
        ".alice@example.com", "alice.@example.com", "al..ice@example.com", "alice @example.com", "alice@exa mple.com",
        "alice@example.com\r\nBcc: x@y.com", "alice\u{0}@example.com", "alice@-example.com", "alice@example.123",
        "\"quoted\"@example.com", "alice@example.com\u{200B}", String(repeating: "a", count: 65) + "@example.com",
        "alice@" + String(repeating: "a", count: 250) + ".com", "a(b)@example.com", "<alice@example.com>", "alice;drop@example.com", "alice\t@example.com", "alice\u{7F}@example.com",
        "alice,bob@example.com", "al\\ice@example.com", "al[ice]@example.com", "alice:x@example.com", "alice@exa_mple.com", "alice@exa!mple.com", "alice@exa+mple.com",
    ])
    func refusesInvalidAddresses(_ raw: String) {
        #expect(throws: GatehouseError.self) { try EmailAddress(raw) }
    }

    @Test func masksLikeCognito() throws {
        #expect(try EmailAddress("alice@example.com").masked == "a***@e***.com")
        #expect(try EmailAddress("Bob@Mail.Example.org").masked == "b***@m***.org")
    }

    @Test func caseFoldsForTheKey() throws {
        #expect(try EmailAddress("ALICE@EXAMPLE.COM").key == (try EmailAddress("alice@example.com").key))
    }
}

@Suite("Password policy")
struct PasswordPolicyTests {
    let policy = PasswordPolicy()
    let email = try! EmailAddress("alice@example.com")

    @Test(arguments: ["correct horse 9", "Tr0ub4dor&3", "пароль-2026", "😀😀😀😀😀😀😀1"])
    func acceptsReasonablePasswords(_ password: String) throws {
        try policy.validate(password, email: email)
    }

    @Test(arguments: [
        ("short1", "at least 8"), ("longenough", "digit"), ("password1", "too common"), ("Password123", "too common"),
        ("alice@example.com1", ""), (String(repeating: "a1", count: 200), "at most"),
    ])
    func refusesWeakPasswords(_ password: String, _ reason: String) {
        do {
            try policy.validate(password, email: email)
            if !reason.isEmpty { Issue.record("accepted \(password)") }
        } catch {
            #expect(error.code == .invalidPassword)
            if !reason.isEmpty { #expect(error.message.contains(reason)) }
        }
    }

    @Test func refusesTheEmailItself() {
        var lenient = PasswordPolicy()
        lenient.requireDigit = false
        #expect(throws: GatehouseError.self) { try lenient.validate("alice@example.com", email: email) }
        #expect(throws: GatehouseError.self) { try lenient.validate("ALICE", email: try EmailAddress("alicealice@example.com")) }
    }

    @Test func takesPasswordsExactlyAsSent() throws {
        // Leading and trailing spaces are part of the password, not trimmed away.
        try policy.validate("  spaced 1  ", email: email)
    }
}
