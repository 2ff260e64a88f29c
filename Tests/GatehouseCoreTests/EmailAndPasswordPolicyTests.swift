import Foundation
import Testing

@testable import GatehouseCore

@Suite("Email addresses")
struct EmailAddressTests {
    @Test(arguments: [
        "alice@example.com", "O'Brien+tag@Example.co.uk", "müller@exämple.de", "a.b-c_d@sub.domain.io", "x@y.museum",
        "a!#$%&'*+/=?^`{|}~z@example.com", "Z9@xn--bcher-kva.example",
    ])
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
        "alice@" + String(repeating: "a", count: 250) + ".com", "a(b)@example.com", "<alice@example.com>", "alice;drop@example.com",
        "alice\t@example.com", "alice\u{7F}@example.com",
        "alice,bob@example.com", "al\\ice@example.com", "al[ice]@example.com", "alice:x@example.com", "alice@exa_mple.com", "alice@exa!mple.com",
        "alice@exa+mple.com",
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

    /// Compatibility forms are the address they stand for (NFKC before validation and the key):
    /// full-width letters, a full-width or small `@`, ligatures, full-width digits and dots.
    @Test(arguments: [
        ("ｗｉｄｅ@example.com", "wide@example.com"), ("ＷＩＤＥ@example.com", "wide@example.com"),
        ("wide＠example.com", "wide@example.com"), ("ｗｉｄｅ＠ｅｘａｍｐｌｅ．ｃｏｍ", "wide@example.com"),
        ("wide\u{FE6B}example.com", "wide@example.com"), ("\u{FB01}ne@example.com", "fine@example.com"),
        ("user１２@example.com", "user12@example.com"), ("müller@exämple.de", "müller@exämple.de"),
        ("mu\u{308}ller@example.de", "müller@example.de"), ("İnci@example.com", "i\u{307}nci@example.com"),
    ])
    func normalisesWithNFKC(_ raw: String, _ key: String) throws {
        let email = try EmailAddress(raw)
        #expect(email.key == key)
        #expect(email.key == (try EmailAddress(key).key), "the key is its own key")
        #expect(email.value == raw.precomposedStringWithCompatibilityMapping, "mail goes to the normal form")
        #expect(!email.value.unicodeScalars.contains { (0xFF00...0xFFEF).contains($0.value) })
    }

    /// What NFKC turns into something invalid is invalid: a no-break or ideographic space becomes a
    /// space, a full-width `＠` a second `@`, a long full-width address too long.
    @Test(arguments: [
        "wide\u{A0}x@example.com", "wide\u{3000}@example.com", "a@b＠example.com", "ｗｉｄｅ@example.com\u{2028}",
        String(repeating: "ｗ", count: 65) + "@example.com", "x@" + String(repeating: "ｃ", count: 250) + ".com", "wide\u{FF02}@example.com",
    ])
    func refusesWhatNFKCMakesInvalid(_ raw: String) {
        #expect(throws: GatehouseError.self) { try EmailAddress(raw) }
    }

    /// The one-pass ASCII check must answer exactly what the general rules answer: compared on
    /// 200,000 generated addresses biased towards the characters the rules care about, and on the
    /// length limits.
    @Test func asciiPathAgreesWithTheGeneralRules() {
        let alphabet = Array("aZ09.@-_+!~`{|}'=?^#$%&*/ \t\"(),:;<>[]\\\u{7F}\u{1}".utf8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {  // SplitMix64: reproducible without a seedable library generator
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        var cases: [String] = []
        let common = Array("aZ09".utf8)
        func part(_ length: Int) -> [UInt8] {  // mostly letters and digits, so generated cases also pass
            (0..<length).map { _ in next(10) < 7 ? common[next(common.count)] : alphabet[next(alphabet.count)] }
        }
        for _ in 0..<200_000 {
            let local = part(next(6))
            let domain = part(next(5)) + (next(4) > 0 ? [UInt8(ascii: ".")] : []) + part(next(4))
            cases.append(String(decoding: local + (next(8) > 0 ? [UInt8(ascii: "@")] : []) + domain, as: UTF8.self))
        }
        for local in [63, 64, 65] {
            for label in [62, 63, 64] {
                cases.append(String(repeating: "a", count: local) + "@" + String(repeating: "b", count: label) + ".com")
            }
        }
        for domain in [252, 253, 254] {  // labels of 63 joined by dots, the last one shortened
            var labels: [String] = []
            var left = domain
            while left > 0 {
                let count = min(63, left)
                labels.append(String(repeating: "c", count: count))
                left -= count + 1
            }
            cases.append("x@" + labels.joined(separator: "."))
        }
        var accepted = 0
        for raw in cases where raw.utf8.count <= EmailAddress.maxLength {
            let fast = EmailAddress.asciiKey(raw)
            #expect(fast == EmailAddress.unicodeKey(raw), "\(Array(raw.utf8))")
            if fast != nil { accepted += 1 }
        }
        #expect(accepted > 100)  // the generated cases reach the accepting side too
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
